import { Injectable } from '@nestjs/common';
import { notFound, type Actor, type RepoAccess } from '@gitforge/contracts';
import type { IssueEntity } from '../issues/issue.entity.js';
import { IssuesService } from '../issues/issues.service.js';
import type { PullRequestEntity } from './pull-request.entity.js';
import { PullsRepository } from './pulls.repository.js';

/** A pull request and its base repository, after the access checks of the pull routes. */
export interface PullContext {
  repo: RepoAccess;
  issue: IssueEntity;
  pull: PullRequestEntity;
}

/** The one way pull routes (pulls and reviews) find `{owner}/{repo}#{index}` as a pull request. */
@Injectable()
export class PullContexts {
  constructor(
    private readonly issues: IssuesService,
    private readonly pulls: PullsRepository,
  ) {}

  /** The pull if the actor may read it; an issue's number is 404 here. */
  async pullFor(actor: Actor | null, owner: string, repo: string, index: string | number): Promise<PullContext> {
    return this.withPull(await this.issues.issueFor(actor, owner, repo, index));
  }

  /** As {@link pullFor}, for a change: signed in, and not in an archived repository. */
  async pullForWrite(actor: Actor | null, owner: string, repo: string, index: string | number): Promise<PullContext & { actor: Actor }> {
    return this.withPull(await this.issues.issueForWrite(actor, owner, repo, index));
  }

  private async withPull<C extends { issue: IssueEntity }>(ctx: C): Promise<C & { pull: PullRequestEntity }> {
    if (!ctx.issue.isPull) throw notFound();
    const pull = await this.pulls.findByIssueId(ctx.issue.id);
    if (!pull) throw notFound();
    return { ...ctx, pull };
  }
}
