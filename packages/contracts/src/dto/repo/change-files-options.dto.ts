import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { NonEmptyArray } from '../common/validators.js';
import { ChangeFileOperation } from './change-file-operation.dto.js';
import { FileOptions } from './file-options.dto.js';

/** `POST /repos/{owner}/{repo}/contents`: several file changes in one commit. */
export class ChangeFilesOptions extends FileOptions {
  @NonEmptyArray()
  @ValidateNested({ each: true })
  @Type(() => ChangeFileOperation)
  files!: ChangeFileOperation[];
}
