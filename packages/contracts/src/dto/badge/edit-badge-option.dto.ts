import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidUrl } from '../common/validators.js';

/** `PATCH /admin/badges/{slug}` (a gitforge extension); only the fields present change, the slug never does. */
export class EditBadgeOption {
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @MaxLength(255)
  description?: string;

  /** An http(s) URL, or empty for none. */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @ValidUrl()
  image_url?: string;
}
