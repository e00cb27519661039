import { Module } from '@nestjs/common';
import { DirectoryClient } from '@gitforge/platform';
import { OrgGate } from '../access/org-gate.js';
import { RepoGate } from '../access/repo-gate.js';
import { DependenciesRepository } from '../dependencies/dependencies.repository.js';
import { LabelResolver } from '../labels/label-resolver.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { LabelsRepository } from '../labels/labels.repository.js';
import { MilestonesRepository } from '../milestones/milestones.repository.js';
import { ProjectsRepository } from '../projects/projects.repository.js';
import { TimesRepository } from '../times/times.repository.js';
import { CommentsRepository } from '../comments/comments.repository.js';
import { ReactionsRepository } from '../reactions/reactions.repository.js';
import { IssueWatchesRepository } from '../subscriptions/issue-watches.repository.js';
import { PullContexts } from '../pulls/pull-contexts.js';
import { PullGitClient } from '../pulls/pull-git.client.js';
import { PullLoader } from '../pulls/pull-loader.js';
import { PullsRepository } from '../pulls/pulls.repository.js';
import { ReviewsRepository } from '../reviews/reviews.repository.js';
import { IssueCounters } from './issue-counters.js';
import { IssueEvents } from './issue-events.js';
import { IssueLoader } from './issue-loader.js';
import { IssueRemoval } from './issue-removal.js';
import { IssuesController } from './issues.controller.js';
import { IssuesRepository } from './issues.repository.js';
import { IssuesService } from './issues.service.js';
import { CommitReferencesConsumer } from '../references/commit-references.consumer.js';
import { CrossReferences } from '../references/cross-references.js';
import { IssueReferences } from '../references/issue-references.js';
import { NamedIssues } from '../references/named-issues.js';
import { RepoLifecycleConsumer } from './repo-lifecycle.consumer.js';

/**
 * What every feature of the tracker builds on (access, loading, events, counts, and the
 * repositories other features' rows are read and deleted through), shared as one set.
 */
const SHARED = [
  RepoGate,
  OrgGate,
  DirectoryClient,
  IssuesRepository,
  LabelsRepository,
  LabelResolver,
  MilestonesRepository,
  DependenciesRepository,
  TimesRepository,
  ProjectsRepository,
  CommentsRepository,
  ReactionsRepository,
  IssueWatchesRepository,
  AttachmentsRepository,
  PullsRepository,
  ReviewsRepository,
  PullGitClient,
  PullLoader,
  IssueLoader,
  IssueEvents,
  IssueCounters,
  IssuesService,
  IssueRemoval,
  PullContexts,
  NamedIssues,
  IssueReferences,
  CrossReferences,
];

/** Issues themselves, and what every other feature of the tracker builds on. */
@Module({
  controllers: [IssuesController],
  providers: [...SHARED, RepoLifecycleConsumer, CommitReferencesConsumer],
  exports: SHARED,
})
export class IssuesModule {}
