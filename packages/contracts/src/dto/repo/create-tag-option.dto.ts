import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { GitRefName } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/tags`. */
export class CreateTagOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @GitRefName()
  @MaxLength(255)
  tag_name!: string;

  /** A message makes an annotated tag; without one the tag is lightweight. */
  @IsOptional()
  @IsString()
  message?: string;

  /** Branch, tag or commit to tag (default: the default branch). */
  @IsOptional()
  @IsString()
  target?: string;
}
