import { IsDefined, IsInt, Min } from 'class-validator';

/** `POST /projects/{id}/columns/{column_id}/issues`: adds the issue to the project, or moves it to this column. */
export class MoveProjectIssueOption {
  /** The issue's id (not its number). */
  @IsDefined()
  @IsInt()
  @Min(1)
  issue_id!: number;
}
