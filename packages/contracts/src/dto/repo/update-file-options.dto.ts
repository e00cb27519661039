import { IsOptional, IsString, MaxLength } from 'class-validator';
import { FileOptions } from './file-options.dto.js';

/** `PUT /repos/{owner}/{repo}/contents/{filepath}`: without `sha` the file is created. */
export class UpdateFileOptions extends FileOptions {
  /** The file's bytes, base64. */
  @IsOptional()
  @IsString()
  content?: string;

  /** Blob sha of the file being replaced; must match. */
  @IsOptional()
  @IsString()
  sha?: string;

  /** Moves the file from this path to the one in the URL. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  from_path?: string;
}
