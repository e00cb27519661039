import { Injectable } from '@nestjs/common';
import { In, MoreThan, type EntityManager } from 'typeorm';
import type { ListOptions } from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { CommentType } from '../comments/comment-type.js';
import { CommentEntity } from '../comments/comment.entity.js';
import { ReviewEntity, ReviewType } from './review.entity.js';

/** One reviewer's standing on a pull: their latest approval or rejection that is not dismissed. */
export interface ReviewVerdict {
  reviewId: number;
  reviewerId: number;
  type: typeof ReviewType.approve | typeof ReviewType.reject;
  official: boolean;
  stale: boolean;
  commitId: string;
}

/** Who is asked for a review of a pull and has not given one yet. */
export interface RequestedReviewers {
  userIds: number[];
  teamIds: number[];
}

const VERDICTS = [ReviewType.approve, ReviewType.reject];

/** Reviews of pull requests and their line comments (comment rows of type `code`). */
@Injectable()
export class ReviewsRepository {
  constructor(private readonly db: Database) {}

  findById(id: number, m?: EntityManager): Promise<ReviewEntity | null> {
    return this.db.findOneBy(ReviewEntity, { id }, m);
  }

  /** A pull's reviews and review requests, oldest first (Gitea's FindReviews), one page. */
  list(issueId: number, options: ListOptions): Promise<[ReviewEntity[], number]> {
    return this.db.manager.findAndCount(ReviewEntity, {
      where: { issueId },
      order: { id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
  }

  insert(m: EntityManager, review: Partial<ReviewEntity>): Promise<ReviewEntity> {
    return m.save(ReviewEntity, m.create(ReviewEntity, review));
  }

  async update(m: EntityManager, id: number, changes: Partial<ReviewEntity>): Promise<void> {
    await m.update(ReviewEntity, { id }, changes);
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.delete(ReviewEntity, { id });
  }

  /** The reviewer's pending review of the pull (Gitea's GetCurrentReview). */
  pendingOf(m: EntityManager, issueId: number, reviewerId: number): Promise<ReviewEntity | null> {
    return m.findOne(ReviewEntity, { where: { issueId, reviewerId, type: ReviewType.pending }, order: { id: 'DESC' } });
  }

  /** The reviewer's latest approval, rejection or request (Gitea's GetReviewByIssueIDAndUserID). */
  latestOf(m: EntityManager, issueId: number, reviewerId: number): Promise<ReviewEntity | null> {
    return m.findOne(ReviewEntity, {
      where: { issueId, reviewerId, type: In([...VERDICTS, ReviewType.request]) },
      order: { id: 'DESC' },
    });
  }

  /** The team's latest review request of the pull. */
  teamRequestOf(m: EntityManager, issueId: number, teamId: number): Promise<ReviewEntity | null> {
    return m.findOne(ReviewEntity, { where: { issueId, reviewerTeamId: teamId }, order: { id: 'DESC' } });
  }

  /** Whether an official review is requested and not given yet (Gitea's MergeBlockedByOfficialReviewRequests). */
  async hasOfficialRequest(issueId: number): Promise<boolean> {
    return (await this.db.manager.count(ReviewEntity, { where: { issueId, type: ReviewType.request, official: true } })) > 0;
  }

  /** The pull's open team review requests. */
  teamRequests(m: EntityManager, issueId: number): Promise<ReviewEntity[]> {
    return m
      .createQueryBuilder(ReviewEntity, 'r')
      .where('r.issue_id = :issueId AND r.reviewer_team_id > 0 AND r.type = :type', { issueId, type: ReviewType.request })
      .getMany();
  }

  /** Only a reviewer's latest verdict is official: their older ones lose the mark. */
  async clearOfficial(m: EntityManager, issueId: number, reviewerId: number): Promise<void> {
    await m.update(ReviewEntity, { issueId, reviewerId }, { official: false });
  }

  /** A review given answers the reviewer's requests. */
  async deleteRequestsOf(m: EntityManager, issueId: number, reviewerId: number): Promise<void> {
    await m.delete(ReviewEntity, { issueId, reviewerId, type: ReviewType.request });
  }

  /** A new verdict replaces the older ones: they are dismissed, so a dismissed new one brings none back. */
  async dismissVerdictsOf(m: EntityManager, issueId: number, reviewerId: number): Promise<void> {
    await m.update(ReviewEntity, { issueId, reviewerId, type: In(VERDICTS) }, { dismissed: true });
  }

  /** A reviewer's reviews of a pull not dismissed yet, of any kind (Gitea's FindReviews that `priors` dismisses). */
  undismissedOf(m: EntityManager, issueId: number, reviewerId: number): Promise<ReviewEntity[]> {
    return m.find(ReviewEntity, { where: { issueId, reviewerId, dismissed: false } });
  }

  /** The approvals of a pull not dismissed yet (dismissed when new commits come, if the branch rule says so). */
  undismissedApprovals(m: EntityManager, issueId: number): Promise<ReviewEntity[]> {
    return m.find(ReviewEntity, { where: { issueId, type: ReviewType.approve, dismissed: false }, order: { id: 'ASC' } });
  }

  /** Gitea's MarkReviewsAsStale then MarkReviewsAsNotStale: only reviews of the head commit are fresh. */
  async markStale(m: EntityManager, issueId: number, headSha: string): Promise<void> {
    await m.update(ReviewEntity, { issueId }, { stale: true });
    await m.update(ReviewEntity, { issueId, commitId: headSha }, { stale: false });
  }

  /**
   * Per pull (by issue id), each reviewer's latest approval or rejection that is not dismissed,
   * with whether it is official and stale: what branch protection counts. One query for all.
   */
  async latestVerdicts(issueIds: number[], m?: EntityManager): Promise<Map<number, ReviewVerdict[]>> {
    const out = new Map<number, ReviewVerdict[]>(issueIds.map((id) => [id, []]));
    if (issueIds.length === 0) return out;
    const rows = await (m ?? this.db.manager).find(ReviewEntity, {
      where: { issueId: In([...new Set(issueIds)]), type: In(VERDICTS), dismissed: false },
      order: { id: 'DESC' },
    });
    const seen = new Set<string>();
    for (const r of rows) {
      const key = `${r.issueId}:${r.reviewerId}`;
      if (r.reviewerId <= 0 || seen.has(key)) continue;
      seen.add(key);
      out.get(r.issueId)!.push({
        reviewId: r.id,
        reviewerId: r.reviewerId,
        type: r.type as ReviewVerdict['type'],
        official: r.official,
        stale: r.stale,
        commitId: r.commitId,
      });
    }
    return out;
  }

  /** Per pull (by issue id), the users and teams asked for a review who have not given one. One query. */
  async requestedReviewers(issueIds: number[], m?: EntityManager): Promise<Map<number, RequestedReviewers>> {
    const out = new Map<number, RequestedReviewers>(issueIds.map((id) => [id, { userIds: [], teamIds: [] }]));
    if (issueIds.length === 0) return out;
    const rows = await (m ?? this.db.manager).find(ReviewEntity, {
      where: { issueId: In([...new Set(issueIds)]), type: ReviewType.request },
      order: { id: 'ASC' },
    });
    for (const r of rows) {
      const entry = out.get(r.issueId)!;
      if (r.reviewerId > 0 && !entry.userIds.includes(r.reviewerId)) entry.userIds.push(r.reviewerId);
      if (r.reviewerTeamId > 0 && !entry.teamIds.includes(r.reviewerTeamId)) entry.teamIds.push(r.reviewerTeamId);
    }
    return out;
  }

  /**
   * Per pull (by issue id), who a pull answer shows as its requested reviewers (Gitea's
   * GetReviewsByIssueID for a single pull, PullRequestList.LoadReviews for a list): every user
   * whose latest review that is not dismissed is a request, an approval or a rejection (or a
   * comment, for a single pull), so a reviewer stays listed once they answered; and the teams
   * asked. Each in the order of those reviews' last change. One query.
   */
  async shownReviewers(issueIds: number[], options: { comments: boolean; m?: EntityManager }): Promise<Map<number, RequestedReviewers>> {
    const out = new Map<number, RequestedReviewers>(issueIds.map((id) => [id, { userIds: [], teamIds: [] }]));
    if (issueIds.length === 0) return out;
    const counted: number[] = [ReviewType.approve, ReviewType.reject, ReviewType.request, ...(options.comments ? [ReviewType.comment] : [])];
    const issueId = In([...new Set(issueIds)]);
    // Users' counted reviews, and the teams' requests.
    const rows = await (options.m ?? this.db.manager).find(ReviewEntity, {
      where: [
        { issueId, reviewerTeamId: 0, type: In(counted), dismissed: false },
        { issueId, reviewerTeamId: MoreThan(0) },
      ],
      order: { updatedAt: 'ASC', id: 'ASC' },
    });
    // The latest review per reviewer (and per team), in the order the rows changed.
    const users = new Map<number, Map<number, ReviewEntity>>();
    const teams = new Map<number, Map<number, ReviewEntity>>();
    for (const r of rows) {
      if (r.reviewerTeamId > 0) {
        const byTeam = teams.get(r.issueId) ?? new Map<number, ReviewEntity>();
        byTeam.delete(r.reviewerTeamId);
        byTeam.set(r.reviewerTeamId, r);
        teams.set(r.issueId, byTeam);
      } else if (r.reviewerId > 0) {
        const byUser = users.get(r.issueId) ?? new Map<number, ReviewEntity>();
        byUser.delete(r.reviewerId);
        byUser.set(r.reviewerId, r);
        users.set(r.issueId, byUser);
      }
    }
    for (const [issueId, entry] of out) {
      entry.userIds = [...(users.get(issueId)?.keys() ?? [])];
      entry.teamIds = [...(teams.get(issueId)?.keys() ?? [])];
    }
    return out;
  }

  /**
   * Per pull (by issue id), Gitea's review_comments: the submitted reviews' rows in its history
   * (GetReviewCommentsCount counts comments of type `review`). One query.
   */
  async reviewCommentCounts(issueIds: number[], m?: EntityManager): Promise<Map<number, number>> {
    const out = new Map<number, number>(issueIds.map((id) => [id, 0]));
    if (issueIds.length === 0) return out;
    const rows = await (m ?? this.db.manager)
      .createQueryBuilder(CommentEntity, 'c')
      .select('c.issue_id', 'issueId')
      .addSelect('COUNT(*)', 'n')
      .where('c.issue_id IN (:...ids) AND c.type = :type', { ids: [...new Set(issueIds)], type: CommentType.review })
      .groupBy('c.issue_id')
      .getRawMany<{ issueId: number | string; n: number | string }>();
    for (const r of rows) out.set(Number(r.issueId), Number(r.n));
    return out;
  }

  /** The line comments of reviews, in the order they were made. */
  /** The timeline rows of a review's submissions (`review`). */
  reviewRows(reviewId: number): Promise<CommentEntity[]> {
    return this.db.manager.find(CommentEntity, { where: { reviewId, type: CommentType.review }, order: { id: 'ASC' } });
  }

  codeComments(reviewIds: number[], m?: EntityManager): Promise<CommentEntity[]> {
    if (reviewIds.length === 0) return Promise.resolve([]);
    return (m ?? this.db.manager).find(CommentEntity, {
      where: { reviewId: In(reviewIds), type: CommentType.code },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** How many line comments each review has. */
  async codeCommentCounts(reviewIds: number[], m?: EntityManager): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (reviewIds.length === 0) return out;
    const rows = await (m ?? this.db.manager)
      .createQueryBuilder(CommentEntity, 'c')
      .select('c.review_id', 'reviewId')
      .addSelect('COUNT(*)', 'n')
      .where('c.review_id IN (:...ids) AND c.type = :type', { ids: reviewIds, type: CommentType.code })
      .groupBy('c.review_id')
      .getRawMany<{ reviewId: number | string; n: number | string }>();
    for (const r of rows) out.set(Number(r.reviewId), Number(r.n));
    return out;
  }

  /** The history row of each submitted review (its html_url points there). */
  async reviewRowIds(reviewIds: number[], m?: EntityManager): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (reviewIds.length === 0) return out;
    const rows = await (m ?? this.db.manager).find(CommentEntity, {
      where: { reviewId: In(reviewIds), type: CommentType.review },
      order: { id: 'ASC' },
    });
    for (const r of rows) if (!out.has(r.reviewId)) out.set(r.reviewId, r.id);
    return out;
  }

  /** A review's rows in the history: its line comments, its `review` row and dismissal rows (Gitea's DeleteReview). */
  async deleteRowsOf(m: EntityManager, review: ReviewEntity): Promise<number[]> {
    const rows = await m.find(CommentEntity, {
      where: { issueId: review.issueId, reviewId: review.id, type: In([CommentType.code, CommentType.review, CommentType.dismiss_review]) },
    });
    if (rows.length > 0) await m.delete(CommentEntity, { id: In(rows.map((r) => r.id)) });
    return rows.map((r) => r.id);
  }

  /** Every review of an issue (the issue is deleted). */
  async deleteForIssue(m: EntityManager, issueId: number): Promise<void> {
    await m.delete(ReviewEntity, { issueId });
  }

  /** Every review and review request of the issues (their comments go with the issues). */
  async deleteForIssues(m: EntityManager, issueIds: number[]): Promise<void> {
    await m.delete(ReviewEntity, { issueId: In(issueIds) });
  }
}
