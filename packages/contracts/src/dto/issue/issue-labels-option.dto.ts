import { IsArray, IsOptional } from 'class-validator';

/**
 * `POST/PUT /repos/{owner}/{repo}/issues/{index}/labels`: label ids, or label names (not both);
 * issue-service checks the items as Gitea does (400 for anything else).
 */
export class IssueLabelsOption {
  @IsOptional()
  @IsArray()
  labels?: Array<number | string>;
}
