import { IsArray, IsInt, Max, Min } from 'class-validator';
import { MAX_ROW_ID } from '../common/validators.js';

/** `POST /repos/{owner}/{repo}/branch_protections/priority` (Gitea's own spelling of the class name). */
export class UpdateBranchProtectionPriories {
  /** Rule ids in the order they are tried; the first gets priority 1. */
  @IsArray()
  @IsInt({ each: true })
  @Min(-MAX_ROW_ID, { each: true })
  @Max(MAX_ROW_ID, { each: true })
  ids!: number[];
}
