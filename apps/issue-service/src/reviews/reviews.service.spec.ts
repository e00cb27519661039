import type { EntityManager } from 'typeorm';
import type { CommentsRepository } from '../comments/comments.repository.js';
import { CommentType } from '../comments/comment-type.js';
import { ReviewsService, STALE_APPROVAL_MESSAGE } from './reviews.service.js';
import { ReviewType, type ReviewEntity } from './review.entity.js';
import type { ReviewsRepository } from './reviews.repository.js';

const m = {} as EntityManager;

/** The service with only the repositories markStale may use; any other call fails the test. */
function setup(approvals: Array<Partial<ReviewEntity>>) {
  const calls: string[] = [];
  const reviews = {
    markStale: async (_m: EntityManager, issueId: number, headSha: string) => {
      calls.push(`stale ${issueId} ${headSha}`);
    },
    undismissedApprovals: async () => approvals as ReviewEntity[],
    update: async (_m: EntityManager, id: number, changes: Partial<ReviewEntity>) => {
      calls.push(`update ${id} ${JSON.stringify(changes)}`);
    },
  } as unknown as ReviewsRepository;
  const comments = {
    addEvent: async (_m: EntityManager, e: { issueId: number; posterId: number; type: number; content?: string; refs?: { reviewId?: number } }) => {
      calls.push(`history ${e.issueId} ${e.type} by ${e.posterId} review ${e.refs?.reviewId}: ${e.content}`);
    },
  } as unknown as CommentsRepository;
  const none = {} as never;
  const sut = new ReviewsService(none, none, none, none, none, none, comments, none, none, none, reviews, none, none, none, none, none);
  return { sut, calls };
}

describe(ReviewsService.name, () => {
  describe('markStale', () => {
    it('should mark reviews of other commits stale and dismiss nothing without the rule', async () => {
      const { sut, calls } = setup([{ id: 3, type: ReviewType.approve }]);
      expect(await sut.markStale(m, 10, 'abc', { dismissStaleApprovals: false, doerId: 7 })).toEqual([]);
      expect(calls).toEqual(['stale 10 abc']);
    });

    it('should dismiss every standing approval with Gitea history row when the rule dismisses stale approvals', async () => {
      const { sut, calls } = setup([
        { id: 3, type: ReviewType.approve },
        { id: 5, type: ReviewType.approve },
      ]);
      expect(await sut.markStale(m, 10, 'abc', { dismissStaleApprovals: true, doerId: 7 })).toEqual([3, 5]);
      expect(calls).toEqual([
        'stale 10 abc',
        'update 3 {"dismissed":true}',
        `history 10 ${CommentType.dismiss_review} by 7 review 3: ${STALE_APPROVAL_MESSAGE}`,
        'update 5 {"dismissed":true}',
        `history 10 ${CommentType.dismiss_review} by 7 review 5: ${STALE_APPROVAL_MESSAGE}`,
      ]);
    });
  });
});
