import {
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { PROJECT_COLUMN_COLOR } from './create-project-column-option.dto.js';

/** `PATCH /projects/{id}/columns/{column_id}`: only the fields present change. */
export class EditProjectColumnOption {
  @IsOptional()
  @IsNotEmpty()
  @IsString()
  @MaxLength(100)
  title?: string;

  @IsOptional()
  @IsString()
  @Matches(PROJECT_COLUMN_COLOR, { message: 'invalid color' })
  color?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(127)
  sorting?: number;

  /** `true` makes it the column issues land in when added without one (Gitea's SetDefaultColumn). */
  @IsOptional()
  @IsBoolean()
  default?: boolean;
}
