import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor, Comment, EventName, Issue, IssueChanges, IssueEventPayload, PullRequest, RepoAccess, User } from '@gitforge/contracts';
import { OutboxService } from '@gitforge/platform';
import { PullLoader } from '../pulls/pull-loader.js';
import { repositoryForEvents } from './issue.mapper.js';

type IssueEventName = Extract<EventName, `issue.${string}` | `pull.${string}`>;
type CommentEventName = Extract<EventName, `comment.${string}`>;

/**
 * Writes issue and comment events to the outbox, in the caller's transaction, shaped as Gitea's
 * notifier hands them to webhooks and feeds: the issue as it is now, the repository as its owner
 * sees it, the sender as anyone does.
 */
@Injectable()
export class IssueEvents {
  constructor(
    private readonly outbox: OutboxService,
    private readonly pulls: PullLoader,
  ) {}

  /** A pull request's events carry the pull request as it is now (Gitea's PullRequestPayload). */
  async issue(
    m: EntityManager,
    name: IssueEventName,
    e: {
      actor: Actor;
      action: string;
      issue: Issue;
      repo: RepoAccess;
      sender: User;
      changes?: IssueChanges;
      assignee?: User;
      extra?: Pick<IssueEventPayload, 'requested_reviewer' | 'requested_team' | 'review' | 'review_comment' | 'review_code_comments' | 'before' | 'after'>;
      /** The pull request the issue is, shaped already ({@link PullLoader.prepare}); read here when left out. */
      pull?: PullRequest;
    },
  ): Promise<void> {
    const [pull] = e.pull ? [e.pull] : e.issue.pull_request !== null ? await this.pulls.fromIssues(e.actor, [e.issue], e.repo, { m, single: true, known: [e.sender] }) : [];
    await this.outbox.add(
      m,
      name,
      {
        action: e.action,
        index: e.issue.number,
        issue: e.issue,
        repository: repositoryForEvents(e.repo),
        sender: e.sender,
        ...(e.changes ? { changes: e.changes } : {}),
        ...(e.assignee ? { assignee: e.assignee } : {}),
        is_pull: e.issue.pull_request !== null,
        ...(pull ? { pull_request: { ...pull, base: { ...pull.base, repo: repositoryForEvents(e.repo) } } } : {}),
        ...(e.extra ?? {}),
      },
      { actor: e.actor, repoId: e.repo.id },
    );
  }

  async comment(
    m: EntityManager,
    name: CommentEventName,
    e: { actor: Actor; issue: Issue; comment: Comment; repo: RepoAccess; sender: User; changes?: { body: { from: string } } },
  ): Promise<void> {
    const action = name === 'comment.created' ? 'created' : name === 'comment.edited' ? 'edited' : 'deleted';
    await this.outbox.add(
      m,
      name,
      {
        action,
        issue: e.issue,
        comment: e.comment,
        repository: repositoryForEvents(e.repo),
        sender: e.sender,
        ...(e.changes ? { changes: e.changes } : {}),
        is_pull: e.issue.pull_request !== null,
      },
      { actor: e.actor, repoId: e.repo.id },
    );
  }
}
