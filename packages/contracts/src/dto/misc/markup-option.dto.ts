import { IsOptional, IsString } from 'class-validator';
import { MarkdownOption } from './markdown-option.dto.js';

/** Gitea's `MarkupOption` (`POST /markup`). */
export class MarkupOption extends MarkdownOption {
  /** In Mode `file`: the file's path in the repository, whose extension picks the renderer and whose directory relative links start from. */
  @IsOptional()
  @IsString()
  FilePath?: string;
}
