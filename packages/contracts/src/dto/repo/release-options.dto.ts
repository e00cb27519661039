import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { GitRefName } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/releases` (Gitea's CreateReleaseOption). */
export class CreateReleaseOption {
  /** The release's tag: created at `target_commitish` unless it exists (then the release takes it). */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @GitRefName()
  @MaxLength(255)
  tag_name!: string;

  /** Branch, tag or commit id the new tag points at (default: the default branch). */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  target_commitish?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsBoolean()
  draft?: boolean;

  @IsOptional()
  @IsBoolean()
  prerelease?: boolean;

  /** A message makes the new tag an annotated one. */
  @IsOptional()
  @IsString()
  tag_message?: string;
}

/** `PATCH /repos/{owner}/{repo}/releases/{id}`: empty strings and absent fields leave things as they are. */
export class EditReleaseOption {
  @IsOptional()
  @IsString()
  @GitRefName()
  @MaxLength(255)
  tag_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  target_commitish?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @IsString()
  body?: string;

  @IsOptional()
  @IsBoolean()
  draft?: boolean;

  @IsOptional()
  @IsBoolean()
  prerelease?: boolean;
}
