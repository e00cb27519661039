import { ContractError } from '@gitforge/contracts';
import { reviewHookType, reviewState, reviewTypeFor, storedLine } from './review-rules.js';
import { ReviewType } from './review.entity.js';

const refusal = (fn: () => unknown): { code: string; message: string } => {
  try {
    fn();
  } catch (err) {
    const e = err as ContractError;
    return { code: e.code, message: e.message };
  }
  throw new Error('expected a refusal');
};

describe('review rules', () => {
  it('should refuse the poster approving or rejecting their own pull, as Gitea (422)', () => {
    expect(refusal(() => reviewTypeFor('APPROVED', '', false, true))).toEqual({ code: 'unprocessable', message: 'approve your own pull is not allowed' });
    expect(refusal(() => reviewTypeFor('REQUEST_CHANGES', 'no', false, true))).toEqual({ code: 'unprocessable', message: 'reject your own pull is not allowed' });
    expect(reviewTypeFor('COMMENT', 'my notes', false, true)).toBe(ReviewType.comment);
  });

  it('should need a body for a rejection and a body or a line comment for a comment', () => {
    expect(reviewTypeFor('APPROVED', '', false, false)).toBe(ReviewType.approve);
    expect(refusal(() => reviewTypeFor('REQUEST_CHANGES', '  ', true, false)).message).toBe('review event REQUEST_CHANGES requires a body');
    expect(refusal(() => reviewTypeFor('COMMENT', '', false, false)).message).toBe('review event COMMENT requires a body or a comment');
    expect(reviewTypeFor('COMMENT', '', true, false)).toBe(ReviewType.comment);
  });

  it('should leave an empty or unknown event pending, with a body', () => {
    expect(reviewTypeFor(undefined, 'later', true, false)).toBe(ReviewType.pending);
    expect(reviewTypeFor('PENDING', 'later', false, false)).toBe(ReviewType.pending);
    expect(refusal(() => reviewTypeFor('', '', true, false)).message).toBe('review event  requires a body');
  });

  it('should name states and hook types as Gitea', () => {
    expect([0, 1, 2, 3, 4].map(reviewState)).toEqual(['PENDING', 'APPROVED', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW']);
    expect([1, 2, 3].map(reviewHookType)).toEqual(['pull_request_review_approved', 'pull_request_review_comment', 'pull_request_review_rejected']);
    expect(reviewHookType(ReviewType.pending)).toBeNull();
  });

  it('should store base-side lines negative, the old position winning', () => {
    expect(storedLine(5, 0)).toBe(5);
    expect(storedLine(5, 3)).toBe(-3);
    expect(storedLine(undefined, undefined)).toBe(0);
  });
});
