import { IsOptional, IsString } from 'class-validator';
import { FileOptions } from './file-options.dto.js';

/** `POST /repos/{owner}/{repo}/contents/{filepath}`. */
export class CreateFileOptions extends FileOptions {
  /** The file's bytes, base64. */
  @IsOptional()
  @IsString()
  content?: string;
}
