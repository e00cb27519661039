import { Injectable } from '@nestjs/common';
import type { Comment, RepoAccess, TimelineComment, User } from '@gitforge/contracts';
import { IssueLoader } from '../issues/issue-loader.js';
import type { CommentEntity } from './comment.entity.js';
import { toComment, toTimelineComment, type CommentIssue } from './comment.mapper.js';

/**
 * Turns comment rows into Gitea's shapes a page at a time: one directory call for every poster
 * on the page. Assets are empty until comment attachments exist; they join the parts here.
 */
@Injectable()
export class CommentLoader {
  constructor(private readonly issueLoader: IssueLoader) {}

  /** `issues` holds the issue of every row (by issue id); `known` are users already fetched. */
  async load(
    rows: CommentEntity[],
    issues: Map<number, CommentIssue>,
    repo: RepoAccess,
    known: User[] = [],
  ): Promise<Comment[]> {
    if (rows.length === 0) return [];
    const poster = await this.issueLoader.posters(
      rows.map((r) => r.posterId),
      known,
    );
    return rows.map((r) =>
      toComment(r, issues.get(r.issueId)!, repo, { poster: poster(r.posterId), assets: [] }),
    );
  }

  async one(row: CommentEntity, issue: CommentIssue, repo: RepoAccess, known: User[] = []): Promise<Comment> {
    const [comment] = await this.load([row], new Map([[row.issueId, issue]]), repo, known);
    return comment!;
  }

  /** The history rows of one issue. */
  async timeline(rows: CommentEntity[], issue: CommentIssue, repo: RepoAccess): Promise<TimelineComment[]> {
    if (rows.length === 0) return [];
    const poster = await this.issueLoader.posters(rows.map((r) => r.posterId));
    return rows.map((r) => toTimelineComment(r, issue, repo, { poster: poster(r.posterId) }));
  }
}
