import { IsOptional, IsString, MaxLength } from 'class-validator';
import { EditBranchProtectionOption } from './edit-branch-protection-option.dto.js';

/**
 * `POST /repos/{owner}/{repo}/branch_protections`: `rule_name` (or the deprecated `branch_name`)
 * names a branch or a glob; every other field is one of EditBranchProtectionOption's.
 */
export class CreateBranchProtectionOption extends EditBranchProtectionOption {
  /** Stored in a 255-character column, as Gitea's. */
  @IsOptional() @IsString() @MaxLength(255) rule_name?: string;
  /** Deprecated: used when `rule_name` is empty. */
  @IsOptional() @IsString() @MaxLength(255) branch_name?: string;
}
