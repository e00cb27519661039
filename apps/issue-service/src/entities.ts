import { IssueAssigneeEntity } from './issues/issue-assignee.entity.js';
import { IssueCounterEntity } from './issues/issue-counter.entity.js';
import { IssueMentionEntity } from './issues/issue-mention.entity.js';
import { IssueEntity } from './issues/issue.entity.js';
import { IssueLabelEntity } from './labels/issue-label.entity.js';
import { LabelEntity } from './labels/label.entity.js';
import { Issues1763800000300 } from './migrations/1763800000300-issues.js';
import { Projects1763800000305 } from './migrations/1763800000305-projects.js';
import { MilestoneEntity } from './milestones/milestone.entity.js';
import { ProjectColumnEntity } from './projects/project-column.entity.js';
import { ProjectIssueEntity } from './projects/project-issue.entity.js';
import { ProjectEntity } from './projects/project.entity.js';

export const IssueServiceEntities = [
  IssueEntity,
  IssueCounterEntity,
  IssueAssigneeEntity,
  IssueMentionEntity,
  LabelEntity,
  IssueLabelEntity,
  MilestoneEntity,
  ProjectEntity,
  ProjectColumnEntity,
  ProjectIssueEntity,
];
export const IssueServiceMigrations = [Issues1763800000300, Projects1763800000305];
