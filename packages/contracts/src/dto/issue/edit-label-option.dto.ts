import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * `PATCH /repos/{owner}/{repo}/labels/{id}` and `PATCH /orgs/{org}/labels/{id}`: only the fields
 * present change, except `is_archived`, which Gitea reads as false when absent (the label is
 * un-archived).
 */
export class EditLabelOption {
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @IsOptional()
  @IsString()
  color?: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsBoolean()
  exclusive?: boolean;

  @IsOptional()
  @IsBoolean()
  is_archived?: boolean;
}
