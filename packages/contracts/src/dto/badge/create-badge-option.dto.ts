import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { BadgeSlug, MAX_BADGE_SLUG_LENGTH, ValidUrl } from '../common/validators.js';

/**
 * `POST /admin/badges` (a gitforge extension: Gitea creates badges in its admin web UI only, with
 * the fields and rules of its AdminCreateBadgeForm).
 */
export class CreateBadgeOption {
  /** Unique; letters, digits and `-_.`, starting with a letter or digit. */
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(MAX_BADGE_SLUG_LENGTH)
  @BadgeSlug()
  slug!: string;

  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(255)
  description!: string;

  /** An http(s) URL, or empty for none. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @ValidUrl()
  image_url?: string;
}
