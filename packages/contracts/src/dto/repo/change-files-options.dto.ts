import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, ValidateNested } from 'class-validator';
import { ChangeFileOperation } from './change-file-operation.dto.js';
import { FileOptions } from './file-options.dto.js';

/** `POST /repos/{owner}/{repo}/contents`: several file changes in one commit. */
export class ChangeFilesOptions extends FileOptions {
  @IsArray()
  @ArrayNotEmpty({ message: 'Required' })
  @ValidateNested({ each: true })
  @Type(() => ChangeFileOperation)
  files!: ChangeFileOperation[];
}
