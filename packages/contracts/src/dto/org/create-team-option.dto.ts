import { IsArray, IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { AlphaDashDot, IsStringMap } from '../common/validators.js';
import { Visibilities, type Visibility } from '../../api/user.js';

/** Access levels a team may be given (`owner` belongs to the Owners team alone). */
export const TeamPermissions = ['read', 'write', 'admin'] as const;

/** `POST /orgs/{org}/teams`. */
export class CreateTeamOption {
  @IsString()
  @IsNotEmpty({ message: 'Required' })
  @AlphaDashDot()
  @MaxLength(255)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @IsOptional()
  @IsBoolean()
  includes_all_repositories?: boolean;

  @IsOptional()
  @IsIn(['', ...TeamPermissions])
  permission?: string;

  /** Deprecated by Gitea: every listed unit at `permission`; `units_map` wins when both are given. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  units?: string[];

  /** Unit name → `none`, `read`, `write` or `admin`. */
  @IsOptional()
  @IsStringMap()
  units_map?: Record<string, string>;

  @IsOptional()
  @IsBoolean()
  can_create_org_repo?: boolean;

  /** Defaults to `private`. */
  @IsOptional()
  @IsIn(['', ...Visibilities])
  visibility?: Visibility | '';
}
