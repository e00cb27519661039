import { IsOptional } from 'class-validator';
import { RFC3339Date } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/issues/{index}/deadline`: an absent or null `due_date` removes it. */
export class EditDeadlineOption {
  @IsOptional()
  @RFC3339Date()
  due_date?: string | null;
}
