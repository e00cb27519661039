import { CommentEntity } from './comments/comment.entity.js';
import { IssueAssigneeEntity } from './issues/issue-assignee.entity.js';
import { IssueCounterEntity } from './issues/issue-counter.entity.js';
import { IssueMentionEntity } from './issues/issue-mention.entity.js';
import { IssueEntity } from './issues/issue.entity.js';
import { IssueLabelEntity } from './labels/issue-label.entity.js';
import { LabelEntity } from './labels/label.entity.js';
import { Issues1763800000300 } from './migrations/1763800000300-issues.js';
import { Comments1763800000302 } from './migrations/1763800000302-comments.js';
import { MilestoneEntity } from './milestones/milestone.entity.js';
import { ReactionEntity } from './reactions/reaction.entity.js';
import { IssueWatchEntity } from './subscriptions/issue-watch.entity.js';

export const IssueServiceEntities = [
  IssueEntity,
  IssueCounterEntity,
  IssueAssigneeEntity,
  IssueMentionEntity,
  LabelEntity,
  IssueLabelEntity,
  MilestoneEntity,
  CommentEntity,
  ReactionEntity,
  IssueWatchEntity,
];
export const IssueServiceMigrations = [Issues1763800000300, Comments1763800000302];
