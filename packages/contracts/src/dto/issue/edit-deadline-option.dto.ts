import { IsISO8601, IsOptional } from 'class-validator';

/** `POST /repos/{owner}/{repo}/issues/{index}/deadline`: an absent or null `due_date` removes it. */
export class EditDeadlineOption {
  @IsOptional()
  @IsISO8601()
  due_date?: string | null;
}
