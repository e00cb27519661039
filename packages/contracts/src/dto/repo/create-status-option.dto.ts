import { IsIn, IsOptional, IsString } from 'class-validator';
import { CommitStatusStates, type CommitStatusState } from '../../api/commit.js';

/** `POST /repos/{owner}/{repo}/statuses/{sha}`. */
export class CreateStatusOption {
  @IsIn(CommitStatusStates)
  state!: CommitStatusState;

  @IsOptional()
  @IsString()
  target_url?: string;

  @IsOptional()
  @IsString()
  description?: string;

  @IsOptional()
  @IsString()
  context?: string;
}
