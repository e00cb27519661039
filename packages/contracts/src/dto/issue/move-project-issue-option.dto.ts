import { IsDefined, IsInt, Max, Min } from 'class-validator';
import { MAX_ROW_ID } from '../common/validators.js';

/** `POST /projects/{id}/columns/{column_id}/issues`: adds the issue to the project, or moves it to this column. */
export class MoveProjectIssueOption {
  /** The issue's id (not its number). */
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_ROW_ID)
  issue_id!: number;
}
