import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Comment, RepoAccess, TimelineComment, User } from '@gitforge/contracts';
import { toAttachment } from '../attachments/attachment.mapper.js';
import { AttachmentsRepository } from '../attachments/attachments.repository.js';
import { IssueServiceConfig } from '../issue.config.js';
import { IssueLoader } from '../issues/issue-loader.js';
import type { CommentEntity } from './comment.entity.js';
import { toComment, toTimelineComment, type CommentIssue } from './comment.mapper.js';

/** How a page is loaded: inside a transaction (`m`), with users already fetched (`known`). */
export interface CommentLoadOptions {
  m?: EntityManager;
  known?: User[];
}

/**
 * Turns comment rows into Gitea's shapes a page at a time: one directory call for every poster
 * on the page, one query for every attachment of the page's comments.
 */
@Injectable()
export class CommentLoader {
  constructor(
    private readonly issueLoader: IssueLoader,
    private readonly attachments: AttachmentsRepository,
    private readonly config: IssueServiceConfig,
  ) {}

  /** `issues` holds the issue of every row (by issue id). */
  async load(
    rows: CommentEntity[],
    issues: Map<number, CommentIssue>,
    repo: RepoAccess,
    options: CommentLoadOptions = {},
  ): Promise<Comment[]> {
    if (rows.length === 0) return [];
    const [poster, assets] = await Promise.all([
      this.issueLoader.posters(
        rows.map((r) => r.posterId),
        options.known ?? [],
      ),
      this.attachments.ofComments(
        rows.map((r) => r.id),
        options.m,
      ),
    ]);
    const rootUrl = this.config.rootUrl;
    return rows.map((r) =>
      toComment(r, issues.get(r.issueId)!, repo, {
        poster: poster(r.posterId),
        assets: (assets.get(r.id) ?? []).map((a) => toAttachment(a, rootUrl)),
      }),
    );
  }

  async one(row: CommentEntity, issue: CommentIssue, repo: RepoAccess, options: CommentLoadOptions = {}): Promise<Comment> {
    const [comment] = await this.load([row], new Map([[row.issueId, issue]]), repo, options);
    return comment!;
  }

  /** The history rows of one issue. */
  async timeline(rows: CommentEntity[], issue: CommentIssue, repo: RepoAccess): Promise<TimelineComment[]> {
    if (rows.length === 0) return [];
    const poster = await this.issueLoader.posters(rows.map((r) => r.posterId));
    return rows.map((r) => toTimelineComment(r, issue, repo, { poster: poster(r.posterId) }));
  }
}
