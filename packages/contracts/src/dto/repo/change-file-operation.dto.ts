import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export const FileOperations = ['create', 'update', 'upload', 'rename', 'delete'] as const;
export type FileOperation = (typeof FileOperations)[number];

/** One file of `POST /repos/{owner}/{repo}/contents`. */
export class ChangeFileOperation {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @IsIn(FileOperations)
  operation!: FileOperation;

  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(500)
  path!: string;

  /** New content, base64 (create, update, upload). */
  @IsOptional()
  @IsString()
  content?: string;

  /** Blob sha of the existing file (update, rename, delete). */
  @IsOptional()
  @IsString()
  sha?: string;

  /** Old path of a moved file. */
  @IsOptional()
  @IsString()
  from_path?: string;
}
