import { IsBoolean, IsOptional, IsString } from 'class-validator';

/** Gitea's `MarkdownOption` (`POST /markdown`); its wire names are capitalised. */
export class MarkdownOption {
  /** The markdown to render. */
  @IsOptional()
  @IsString()
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
