import { IsArray, IsInt } from 'class-validator';

/** `POST /repos/{owner}/{repo}/branch_protections/priority` (Gitea's own spelling of the class name). */
export class UpdateBranchProtectionPriories {
  /** Rule ids in the order they are tried; the first gets priority 1. */
  @IsArray()
  @IsInt({ each: true })
  ids!: number[];
}
