import { EventNames, type EventName } from './events.js';

/**
 * Queue names: one per consumer of domain events. They are persistent identifiers;
 * renaming one strands the jobs queued under the old name, so treat a rename as a migration.
 */
export const QueueNames = {
  webhooks: 'gitforge-webhooks',
  feeds: 'gitforge-feeds',
  /** The webhook worker's own second stage: one job per hook task (not an event consumer). */
  webhookDeliveries: 'gitforge-webhook-deliveries',
  /** issue-service: pull requests follow pushes (head and base moves) and commit statuses (auto-merge). */
  pullSync: 'gitforge-pull-sync',
  /**
   * issue-service: a repository's life as the tracker follows it (a transferred one's issues drop the
   * old organization's labels and projects; a deleted one's tracker goes, and pulls from it keep their own ref).
   */
  issueRepoLifecycle: 'gitforge-issue-repo-lifecycle',
  /** issue-service: commits that name issues (`#12`, `fixes #12`) leave a reference on them and close or reopen them. */
  issueReferences: 'gitforge-issue-references',
  /** webhook-worker: the notification projector. */
  notifications: 'gitforge-notifications',
  /** admin-service: the ticks of the scheduled tasks (job schedulers, not an event consumer). */
  adminCron: 'gitforge-admin-cron',
  /** repo-service: language statistics follow pushes to default branches. */
  repoLanguages: 'gitforge-repo-languages',
  /** repo-service: a repository's licenses follow its default branch's license file. */
  repoLicenses: 'gitforge-repo-licenses',
  /** repo-service: the owner name kept on each repository (search matches and sorts by it) follows renames. */
  repoOwnerNames: 'gitforge-repo-owner-names',
  /** actions-service: pushes and pull requests (opened, reopened, synchronized) start the workflow runs they trigger. */
  actionsTriggers: 'gitforge-actions-triggers',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];

/** A consumer of domain events: its queue, and the events it takes (all of them when absent). */
export interface EventConsumer {
  queue: QueueName;
  events?: readonly EventName[];
}

/**
 * The events that make, change or remove feed entries (the projector's table in webhook-worker is
 * typed by this list): the rest never reach the feeds queue, where each was a job that did nothing.
 */
export const FeedEvents = [
  EventNames.repoCreated,
  EventNames.repoRenamed,
  EventNames.repoTransferred,
  EventNames.repoPushed,
  EventNames.refCreated,
  EventNames.refDeleted,
  EventNames.issueOpened,
  EventNames.issueClosed,
  EventNames.issueReopened,
  EventNames.pullMerged,
  EventNames.pullReviewed,
  EventNames.releasePublished,
  EventNames.commentCreated,
] as const;
/** What else the feed projector does: a deleted repository's entries go, a comment's follow its edits and deletion. */
export const FeedUpkeepEvents = [EventNames.repoDeleted, EventNames.commentEdited, EventNames.commentDeleted] as const;

/** Every domain event is relayed to each consumer that takes it (consumers ignore what they don't handle). */
export const EventConsumers: readonly EventConsumer[] = [
  { queue: QueueNames.webhooks },
  { queue: QueueNames.feeds, events: [...FeedEvents, ...FeedUpkeepEvents] },
  { queue: QueueNames.pullSync, events: [EventNames.repoPushed, EventNames.refDeleted, EventNames.statusCreated] },
  { queue: QueueNames.issueRepoLifecycle, events: [EventNames.repoTransferred, EventNames.repoDeleted] },
  { queue: QueueNames.issueReferences, events: [EventNames.repoPushed] },
  {
    queue: QueueNames.notifications,
    events: [
      EventNames.issueOpened,
      EventNames.issueEdited,
      EventNames.issueClosed,
      EventNames.issueReopened,
      EventNames.issueDeleted,
      EventNames.issueAssigned,
      EventNames.pullSynchronized,
      EventNames.pullMerged,
      EventNames.pullReviewRequested,
      EventNames.pullReviewed,
      EventNames.commentCreated,
      EventNames.commentDeleted,
      EventNames.repoDeleted,
      EventNames.repoTransferPending,
    ],
  },
  { queue: QueueNames.repoLanguages, events: [EventNames.repoPushed] },
  { queue: QueueNames.repoLicenses, events: [EventNames.repoPushed] },
  { queue: QueueNames.repoOwnerNames, events: [EventNames.accountRenamed] },
  {
    queue: QueueNames.actionsTriggers,
    events: [EventNames.repoPushed, EventNames.issueOpened, EventNames.issueReopened, EventNames.pullSynchronized, EventNames.repoDeleted, EventNames.repoTransferred],
  },
];
