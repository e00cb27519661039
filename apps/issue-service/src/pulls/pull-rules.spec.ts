import { ReviewType } from '../reviews/review.entity.js';
import { isWorkInProgress } from './pull.mapper.js';
import { headSpec, protectionBlock } from './pulls.service.js';

describe('pull request rules', () => {
  it('should read a head as Gitea does: branch, owner:branch, owner/repo:branch, nothing else', () => {
    expect(headSpec('feature/x')).toEqual({ branch: 'feature/x' });
    expect(headSpec('ann:topic')).toEqual({ owner: 'ann', branch: 'topic' });
    expect(headSpec('ann/fork:topic')).toEqual({ owner: 'ann', name: 'fork', branch: 'topic' });
    for (const bad of ['', 'a:b:c', ':topic', 'ann:', '/fork:topic', 'ann/:topic']) expect(headSpec(bad)).toBeNull();
  });

  it('should make drafts of titles with a work-in-progress prefix, in any case', () => {
    expect(isWorkInProgress('WIP: later')).toBe(true);
    expect(isWorkInProgress('[wip] later')).toBe(true);
    expect(isWorkInProgress('Fix WIP: handling')).toBe(false);
  });

  describe('protectionBlock', () => {
    const rule = {
      protected: true,
      requiredApprovals: 1,
      officialReviewerIds: [7],
      blockOnRejectedReviews: true,
      blockOnOfficialReviewRequests: true,
      blockOnOutdatedBranch: true,
      dismissStaleApprovals: false,
      statusCheckEnabled: true,
      statusChecksPassed: true,
      protectedFiles: [],
    };
    const approve = (reviewerId: number, stale = false) => ({ reviewerId, type: ReviewType.approve, stale });
    const ready = { officialReviewRequested: false, commitsBehind: 0 };

    it('should let a pull through an unprotected branch whatever its reviews', () => {
      expect(protectionBlock({ ...rule, protected: false, statusChecksPassed: false }, [], ready)).toBeNull();
    });

    it('should count only official approvals, and stale ones only while stale approvals stand', () => {
      expect(protectionBlock(rule, [approve(8)], ready)).toBe('Does not have enough approvals');
      expect(protectionBlock(rule, [approve(7)], ready)).toBeNull();
      expect(protectionBlock({ ...rule, dismissStaleApprovals: true }, [approve(7, true)], ready)).toBe('Does not have enough approvals');
      expect(protectionBlock(rule, [approve(7, true)], ready)).toBeNull();
    });

    it('should block on failing checks (unless waiting for them), official rejections and protected files', () => {
      expect(protectionBlock({ ...rule, statusChecksPassed: false }, [approve(7)], ready)).toBe('Not all required status checks successful');
      expect(protectionBlock(rule, [approve(7), { reviewerId: 7, type: ReviewType.reject, stale: false }], ready)).toBe('There are requested changes');
      expect(protectionBlock({ ...rule, protectedFiles: ['secrets.txt'] }, [approve(7)], ready)).toBe('Changed protected files');
    });

    it('should block on official review requests and an outdated head where the rule says so, in Gitea\'s order', () => {
      const asked = { officialReviewRequested: true, commitsBehind: 0 };
      const behind = { officialReviewRequested: false, commitsBehind: 2 };
      expect(protectionBlock(rule, [approve(7)], asked)).toBe('There are official review requests');
      expect(protectionBlock({ ...rule, blockOnOfficialReviewRequests: false }, [approve(7)], asked)).toBeNull();
      expect(protectionBlock(rule, [approve(7)], behind)).toBe('The head branch is behind the base branch');
      expect(protectionBlock({ ...rule, blockOnOutdatedBranch: false }, [approve(7)], behind)).toBeNull();
      expect(protectionBlock({ ...rule, protectedFiles: ['a'] }, [approve(7)], { officialReviewRequested: true, commitsBehind: 1 })).toBe('There are official review requests');
      expect(protectionBlock(rule, [approve(8)], asked)).toBe('Does not have enough approvals');
    });
  });
});
