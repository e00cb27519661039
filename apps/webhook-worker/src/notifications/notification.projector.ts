import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  EventNames,
  IssueSubscriptionPatterns,
  QueueNames,
  RepoFactPatterns,
  type CommentEventPayload,
  type EventEnvelope,
  type IssueEventPayload,
  type IssueParticipants,
  type NotificationAudienceRequest,
} from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig, QueueDriver, RpcClient } from '@gitforge/platform';
import { NotificationSource } from './notification.entity.js';
import { repositoryLink } from './notification.mapper.js';
import { candidatesOf, mentionedLogins, planOf } from './notification-recipients.js';
import { NotificationsRepository, type SubjectSnapshot } from './notifications.repository.js';

const PROJECTOR_CONCURRENCY = 4;

export const issueSubjectKey = (issueId: number): string => `issue:${issueId}`;
export const repoSubjectKey = (repoId: number): string => `repo:${repoId}`;

/**
 * Writes notification threads from domain events (Gitea's notification service), beside the feed
 * projector and like it off the request path: the API call that caused the event only wrote its
 * outbox row. Per event: one call to issue-service for who takes part, one directory call for
 * mentions, one call to repo-service for who of them (and of the watchers) may read the issue or
 * pull, then multi-row upserts, one thread per user and subject. The event is claimed in the same
 * transaction, so a replay writes nothing.
 */
@Injectable()
export class NotificationProjector implements OnApplicationBootstrap {
  constructor(
    private readonly queue: QueueDriver,
    private readonly db: Database,
    private readonly notifications: NotificationsRepository,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.process<EventEnvelope>(QueueNames.notifications, (job) => this.handle(job.data), { concurrency: PROJECTOR_CONCURRENCY });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    if (envelope.name === 'repo.deleted') {
      const repoId = envelope.repoId;
      if (repoId !== null) await this.db.transaction((m) => this.notifications.deleteForRepo(m, repoId));
      return;
    }
    if (envelope.name === EventNames.repoTransferPending) {
      await this.transferPending(envelope as EventEnvelope<'repo.transfer_pending'>);
      return;
    }
    const payload = envelope.payload as IssueEventPayload | CommentEventPayload;
    if (!('issue' in payload) || !payload.issue) return;
    if (envelope.name === 'issue.deleted') {
      await this.db.transaction((m) => this.notifications.deleteForSubject(m, issueSubjectKey(payload.issue.id)));
      return;
    }
    const participants = await this.rpc.call<IssueParticipants, Record<string, string>, { issueId: number }>(IssueSubscriptionPatterns.participants, {
      actor: null,
      body: { issueId: payload.issue.id },
    });
    // An event applied after its issue was deleted (a late or retried job) notifies nobody.
    if (participants.gone) {
      await this.db.transaction((m) => this.notifications.deleteForSubject(m, issueSubjectKey(payload.issue.id)));
      return;
    }
    const subject = snapshotOf(envelope, payload, participants);
    const plan = planOf(envelope);
    const userIds = plan ? await this.audience(envelope, payload, plan, participants) : [];
    const now = new Date();
    await this.db.transaction(async (m) => {
      await this.notifications.lockSubject(m, subject.subjectKey);
      if (!(await this.notifications.claimEvent(m, envelope.id))) return;
      await this.notifications.writeThreads(m, subject, userIds, now);
      await this.notifications.refreshSubject(m, subject);
      await this.notifications.adoptNewestSnapshot(m, subject);
    });
  }

  /**
   * Gitea's CreateRepoTransferNotification: the recipient user, or everyone who may create
   * repositories in the recipient organization (who may accept it), gets a Repository thread; the
   * threads stay when it is accepted or rejected, as in Gitea.
   */
  private async transferPending(envelope: EventEnvelope<'repo.transfer_pending'>): Promise<void> {
    const p = envelope.payload;
    const userIds = p.recipientIsOrg ? await this.directory.repoCreatorIds(p.recipientId) : [p.recipientId];
    const subject: SubjectSnapshot = {
      repoId: p.repository.id,
      source: NotificationSource.repository,
      subjectKey: repoSubjectKey(p.repository.id),
      title: p.repository.full_name,
      state: '',
      subjectUrl: repositoryLink(p.repository, this.config.rootUrl),
      subjectHtmlUrl: p.repository.html_url,
      latestCommentUrl: '',
      latestCommentHtmlUrl: '',
      at: new Date(envelope.occurredAt).getTime(),
    };
    const now = new Date();
    await this.db.transaction(async (m) => {
      if (!(await this.notifications.claimEvent(m, envelope.id))) return;
      await this.notifications.writeThreads(m, subject, userIds, now);
      await this.notifications.refreshSubject(m, subject);
    });
  }

  private async audience(
    envelope: EventEnvelope,
    payload: IssueEventPayload | CommentEventPayload,
    plan: NonNullable<ReturnType<typeof planOf>>,
    participants: IssueParticipants,
  ): Promise<number[]> {
    const logins = mentionedLogins(plan.mentionText);
    const mentioned = (await this.directory.accountsByNames(null, logins)).filter((a) => a.kind === 'user').map((a) => a.id);
    const { userIds, excluded } = candidatesOf(plan, participants, mentioned, envelope.actor?.id ?? null);
    const request: NotificationAudienceRequest = {
      repoId: payload.repository.id,
      userIds,
      unit: payload.is_pull ? 'repo.pulls' : 'repo.issues',
      withWatchers: plan.watchers,
    };
    if (request.userIds.length === 0 && !request.withWatchers) return [];
    const readers = await this.rpc.call<number[], Record<string, string>, NotificationAudienceRequest>(RepoFactPatterns.notificationAudience, {
      actor: null,
      body: request,
    });
    return readers.filter((id) => !excluded.has(id));
  }
}

/**
 * The issue or pull as the event shows it (Gitea's convert.ToNotificationThread reads it live; we
 * keep it on the threads): the issue's API URL even for a pull, as Gitea's; merged pulls `merged`.
 */
export function snapshotOf(envelope: EventEnvelope, payload: IssueEventPayload | CommentEventPayload, participants: IssueParticipants): SubjectSnapshot {
  const issue = payload.issue;
  const merged = envelope.name === 'pull.merged' || issue.pull_request?.merged === true;
  const commentId = participants.latestCommentId;
  return {
    repoId: payload.repository.id,
    source: payload.is_pull ? NotificationSource.pull : NotificationSource.issue,
    subjectKey: issueSubjectKey(issue.id),
    title: issue.title,
    state: payload.is_pull && merged ? 'merged' : issue.state,
    subjectUrl: issue.url,
    subjectHtmlUrl: issue.html_url,
    latestCommentUrl: commentId ? `${payload.repository.url}/issues/comments/${commentId}` : '',
    latestCommentHtmlUrl: commentId ? `${issue.html_url}#issuecomment-${commentId}` : '',
    at: new Date(envelope.occurredAt).getTime(),
  };
}
