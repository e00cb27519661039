import { CommentEntity } from './comments/comment.entity.js';
import { IssueDependencyEntity } from './dependencies/issue-dependency.entity.js';
import { AttachmentEntity } from './attachments/attachment.entity.js';
import { IssueAssigneeEntity } from './issues/issue-assignee.entity.js';
import { IssueCounterEntity } from './issues/issue-counter.entity.js';
import { IssueMentionEntity } from './issues/issue-mention.entity.js';
import { IssueEntity } from './issues/issue.entity.js';
import { IssueLabelEntity } from './labels/issue-label.entity.js';
import { LabelEntity } from './labels/label.entity.js';
import { Issues1763800000300 } from './migrations/1763800000300-issues.js';
import { Times1763800000304 } from './migrations/1763800000304-times.js';
import { Projects1763800000305 } from './migrations/1763800000305-projects.js';
import { IssueDependencies1763800000306 } from './migrations/1763800000306-issue-dependencies.js';
import { CommentTimeline1763800000307 } from './migrations/1763800000307-comment-timeline.js';
import { Pulls1763800000308 } from './migrations/1763800000308-pulls.js';
import { ReviewTeamRequests1763800000311 } from './migrations/1763800000311-review-team-requests.js';
import { PullHeadBranchDeleted1763800000312 } from './migrations/1763800000312-pull-head-branch-deleted.js';
import { CommentCrossReferences1763800000313 } from './migrations/1763800000313-comment-cross-references.js';
import { CommentTrackedTime1763800000314 } from './migrations/1763800000314-comment-tracked-time.js';
import { PullAutoMergeEntity, PullRequestEntity } from './pulls/pull-request.entity.js';
import { ReviewEntity } from './reviews/review.entity.js';
import { ProjectColumnEntity } from './projects/project-column.entity.js';
import { ProjectIssueEntity } from './projects/project-issue.entity.js';
import { ProjectEntity } from './projects/project.entity.js';
import { StopwatchEntity } from './times/stopwatch.entity.js';
import { TrackedTimeEntity } from './times/tracked-time.entity.js';
import { Comments1763800000302 } from './migrations/1763800000302-comments.js';
import { Attachments1763800000303 } from './migrations/1763800000303-attachments.js';
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
  IssueDependencyEntity,
  TrackedTimeEntity,
  StopwatchEntity,
  ProjectEntity,
  ProjectColumnEntity,
  ProjectIssueEntity,
  CommentEntity,
  ReactionEntity,
  IssueWatchEntity,
  AttachmentEntity,
  PullRequestEntity,
  PullAutoMergeEntity,
  ReviewEntity,
];
export const IssueServiceMigrations = [
  Issues1763800000300,
  Comments1763800000302,
  Attachments1763800000303,
  Times1763800000304,
  Projects1763800000305,
  IssueDependencies1763800000306,
  CommentTimeline1763800000307,
  Pulls1763800000308,
  ReviewTeamRequests1763800000311,
  PullHeadBranchDeleted1763800000312,
  CommentCrossReferences1763800000313,
  CommentTrackedTime1763800000314,
];
