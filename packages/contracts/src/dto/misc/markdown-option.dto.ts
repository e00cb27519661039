import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_MARKUP_TEXT_LENGTH } from '../../limits.js';

/** Gitea's `MarkdownOption` (`POST /markdown`); its wire names are capitalised. */
export class MarkdownOption {
  /** The markdown to render, at most MAX_MARKUP_TEXT_LENGTH long. */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MARKUP_TEXT_LENGTH)
  Text?: string;

  /** `markdown` (the default), `comment`, `gfm`, `wiki` or `file`; anything else is 422. */
  @IsOptional()
  @IsString()
  Mode?: string;

  /**
   * Where relative links, issue references and images point: `/{owner}/{repo}` or
   * `/{owner}/{repo}/src/{branch|commit|tag}/{ref}[/{dir}]`.
   */
  @IsOptional()
  @IsString()
  Context?: string;

  /** Deprecated: the same as Mode `wiki`. */
  @IsOptional()
  @IsBoolean()
  Wiki?: boolean;
}
