import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** Gitea's ColumnColorPattern, or empty for no colour. */
export const PROJECT_COLUMN_COLOR = /^(#[0-9a-fA-F]{6})?$/;

/** `POST /projects/{id}/columns` (Gitea's EditProjectColumnForm). */
export class CreateProjectColumnOption {
  @IsNotEmpty({ message: 'Required' })
  @IsString()
  @MaxLength(100)
  title!: string;

  /** `#rrggbb` or empty. */
  @IsOptional()
  @IsString()
  @Matches(PROJECT_COLUMN_COLOR, { message: 'invalid color' })
  color?: string;

  /** Position among the columns; after the last one when absent. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(127)
  sorting?: number;
}
