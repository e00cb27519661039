import { IsNotEmpty, IsString } from 'class-validator';
import { FileOptions } from './file-options.dto.js';

/** `DELETE /repos/{owner}/{repo}/contents/{filepath}`. */
export class DeleteFileOptions extends FileOptions {
  /** Blob sha of the file being deleted; must match. */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  sha!: string;
}
