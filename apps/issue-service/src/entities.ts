import { AttachmentEntity } from './attachments/attachment.entity.js';
import { IssueAssigneeEntity } from './issues/issue-assignee.entity.js';
import { IssueCounterEntity } from './issues/issue-counter.entity.js';
import { IssueMentionEntity } from './issues/issue-mention.entity.js';
import { IssueEntity } from './issues/issue.entity.js';
import { IssueLabelEntity } from './labels/issue-label.entity.js';
import { LabelEntity } from './labels/label.entity.js';
import { Issues1763800000300 } from './migrations/1763800000300-issues.js';
import { Attachments1763800000303 } from './migrations/1763800000303-attachments.js';
import { MilestoneEntity } from './milestones/milestone.entity.js';

export const IssueServiceEntities = [
  IssueEntity,
  IssueCounterEntity,
  IssueAssigneeEntity,
  IssueMentionEntity,
  LabelEntity,
  IssueLabelEntity,
  MilestoneEntity,
  AttachmentEntity,
];
export const IssueServiceMigrations = [Issues1763800000300, Attachments1763800000303];
