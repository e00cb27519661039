import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** `POST /repos/{owner}/{repo}/labels` and `POST /orgs/{org}/labels`. */
export class CreateLabelOption {
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  @MaxLength(255)
  name!: string;

  /** `#rrggbb`, `rrggbb`, `#rgb` or `rgb`, any case; anything else is 422 "invalid color: …". */
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  color!: string;

  @IsOptional()
  @IsString()
  description?: string;

  /** A scoped name (`kind/bug`) with `exclusive` keeps one label of its scope per issue. */
  @IsOptional()
  @IsBoolean()
  exclusive?: boolean;

  /** Honoured for repository labels only: Gitea ignores it when creating an organization label. */
  @IsOptional()
  @IsBoolean()
  is_archived?: boolean;
}
