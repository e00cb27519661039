import { IsArray, IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { AlphaDashDot, IsStringMap } from '../common/validators.js';
import { Visibilities, type Visibility } from '../../api/user.js';
import { TeamPermissions } from './create-team-option.dto.js';

/**
 * `PATCH /teams/{id}`. Gitea's rules: an empty `name` keeps the name; `includes_all_repositories`
 * only changes together with `permission`; `units_map` wins over `units`; an omitted
 * `visibility` is left unchanged; the Owners team keeps its permission and visibility.
 */
export class EditTeamOption {
  @ValidateIf((o: EditTeamOption) => o.name !== undefined && o.name !== null && o.name !== '')
  @IsString()
  @AlphaDashDot()
  @MaxLength(255)
  name?: string;

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

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  units?: string[];

  @IsOptional()
  @IsStringMap()
  units_map?: Record<string, string>;

  @IsOptional()
  @IsBoolean()
  can_create_org_repo?: boolean;

  @IsOptional()
  @IsIn(['', ...Visibilities])
  visibility?: Visibility | '';
}
