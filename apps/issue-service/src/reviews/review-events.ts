import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor, Issue, PullRequest, RepoAccess, Team, User } from '@gitforge/contracts';
import { OutboxService } from '@gitforge/platform';
import { repositoryForEvents } from '../issues/issue.mapper.js';

/** What every review event carries: the pull as it is now (its issue and, when known, its PullRequest shape). */
export interface ReviewEventBase {
  actor: Actor;
  issue: Issue;
  repo: RepoAccess;
  sender: User;
  pullRequest?: PullRequest;
}

/**
 * Writes review events to the outbox in the caller's transaction, shaped as Gitea's
 * PullRequestPayload: `pull.reviewed` (action `reviewed`, or `review_dismissed`) with the
 * review's hook type and content; `pull.review_requested` with the user or team asked.
 */
@Injectable()
export class ReviewEvents {
  constructor(private readonly outbox: OutboxService) {}

  async reviewed(m: EntityManager, e: ReviewEventBase & { action: 'reviewed' | 'review_dismissed'; review: { type: string; content: string } }): Promise<void> {
    await this.outbox.add(m, 'pull.reviewed', { ...this.base(e), action: e.action, review: e.review }, { actor: e.actor, repoId: e.repo.id });
  }

  async reviewRequested(
    m: EntityManager,
    e: ReviewEventBase & { action: 'review_requested' | 'review_request_removed'; reviewer?: User; team?: Team },
  ): Promise<void> {
    await this.outbox.add(
      m,
      'pull.review_requested',
      { ...this.base(e), action: e.action, requested_reviewer: e.reviewer ?? null, requested_team: e.team ?? null },
      { actor: e.actor, repoId: e.repo.id },
    );
  }

  private base(e: ReviewEventBase) {
    return {
      index: e.issue.number,
      issue: e.issue,
      repository: repositoryForEvents(e.repo),
      sender: e.sender,
      is_pull: true,
      ...(e.pullRequest ? { pull_request: e.pullRequest } : {}),
    };
  }
}
