import { IsOptional, IsString } from 'class-validator';
import { EditBranchProtectionOption } from './edit-branch-protection-option.dto.js';

/**
 * `POST /repos/{owner}/{repo}/branch_protections`: `rule_name` (or the deprecated `branch_name`)
 * names a branch or a glob; every other field is one of EditBranchProtectionOption's.
 */
export class CreateBranchProtectionOption extends EditBranchProtectionOption {
  @IsOptional() @IsString() rule_name?: string;
  /** Deprecated: used when `rule_name` is empty. */
  @IsOptional() @IsString() branch_name?: string;
}
