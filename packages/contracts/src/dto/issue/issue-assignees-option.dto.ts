import { IsArray, IsOptional, IsString } from 'class-validator';

/** `POST/DELETE /repos/{owner}/{repo}/issues/{index}/assignees`. */
export class IssueAssigneesOption {
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  assignees?: string[];
}
