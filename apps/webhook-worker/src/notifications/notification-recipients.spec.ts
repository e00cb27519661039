import type { EventEnvelope, IssueParticipants } from '@gitforge/contracts';
import { candidatesOf, isWorkInProgress, mentionedLogins, planOf } from './notification-recipients.js';

const participants = (p: Partial<IssueParticipants> = {}): IssueParticipants => ({
  followers: [],
  unsubscribed: [],
  assignees: [],
  reviewers: [],
  latestCommentId: 0,
  ...p,
});

const envelope = (name: string, payload: Record<string, unknown>): EventEnvelope =>
  ({ id: 'e1', name, version: 1, occurredAt: '2026-01-01T00:00:00Z', actor: { id: 1, login: 'actor' }, repoId: 7, payload }) as unknown as EventEnvelope;

describe('mentionedLogins', () => {
  it('should find @logins in prose, once each, lower-cased', () => {
    expect(mentionedLogins('@Alice and (@bob), [@carol.d] @alice!')).toEqual(['alice', 'bob', 'carol.d']);
  });

  it('should leave out e-mail addresses, code spans and fenced blocks', () => {
    expect(mentionedLogins('mail me at x@example.com, run `@dave` or\n```\n@erin\n```\nthanks @frank')).toEqual(['frank']);
  });
});

describe('planOf', () => {
  it('should notify everyone taking part of comments, closes and merges, and search comments for mentions', () => {
    expect(planOf(envelope('comment.created', { issue: { title: 't' }, comment: { body: 'hi @x' } }))).toEqual({ all: true, watchers: true, receivers: [], mentionText: 'hi @x' });
    expect(planOf(envelope('issue.closed', { issue: { title: 't' } }))).toMatchObject({ all: true, watchers: true });
    expect(planOf(envelope('pull.merged', { issue: { title: 't' }, is_pull: true }))).toMatchObject({ all: true, watchers: true });
  });

  it("should leave a work-in-progress pull's news to those taking part, save its opening and the end of its WIP title", () => {
    const wip = { issue: { title: 'WIP: draft' }, is_pull: true };
    expect(planOf(envelope('comment.created', { ...wip, comment: { body: '' } }))).toMatchObject({ all: true, watchers: false });
    expect(planOf(envelope('pull.synchronized', wip))).toMatchObject({ all: true, watchers: false });
    // Gitea's NewPullRequest names every watcher, WIP or not.
    expect(planOf(envelope('issue.opened', wip))).toMatchObject({ all: true, watchers: true });
    expect(planOf(envelope('issue.edited', { issue: { title: 'draft' }, is_pull: true, changes: { title: { from: 'WIP: draft' } } }))).toMatchObject({ all: true, watchers: true });
    expect(planOf(envelope('issue.edited', { issue: { title: 'WIP: still' }, is_pull: true, changes: { title: { from: 'WIP: draft' } } }))).toBeNull();
    expect(planOf(envelope('issue.edited', { issue: { title: 'plain' }, is_pull: false, changes: { title: { from: 'WIP: issue' } } }))).toBeNull();
  });

  it('should notify only the user assigned or asked for a review, and nobody of an unassignment or an edit', () => {
    expect(planOf(envelope('issue.assigned', { action: 'assigned', assignee: { id: 5 } }))).toEqual({ all: false, watchers: false, receivers: [5], mentionText: '' });
    expect(planOf(envelope('issue.assigned', { action: 'unassigned', assignee: { id: 5 } }))).toBeNull();
    expect(planOf(envelope('pull.review_requested', { action: 'review_requested', requested_reviewer: { id: 6 } }))).toMatchObject({ receivers: [6] });
    expect(planOf(envelope('issue.edited', { issue: {} }))).toBeNull();
  });
});

describe('candidatesOf', () => {
  it('should take followers, assignees and reviewers, never the actor, and keep the unsubscribed out', () => {
    const plan = { all: true, watchers: true, receivers: [], mentionText: '' };
    const { userIds, excluded } = candidatesOf(plan, participants({ followers: [1, 2, 3], assignees: [4], reviewers: [5], unsubscribed: [3] }), [], 1);
    expect(userIds.sort()).toEqual([2, 4, 5]);
    expect([...excluded].sort()).toEqual([1, 3]);
  });

  it('should notify a mentioned user who unsubscribed, but not the actor mentioning itself', () => {
    const plan = { all: true, watchers: true, receivers: [], mentionText: '' };
    const { userIds, excluded } = candidatesOf(plan, participants({ unsubscribed: [8] }), [8, 1], 1);
    expect(userIds).toEqual([8]);
    expect(excluded.has(8)).toBe(false);
    expect(excluded.has(1)).toBe(true);
  });

  it('should name only the receivers when the plan is not for everyone', () => {
    const { userIds } = candidatesOf({ all: false, watchers: false, receivers: [6], mentionText: '' }, participants({ followers: [2] }), [], 1);
    expect(userIds).toEqual([6]);
  });
});

describe('isWorkInProgress', () => {
  it("should know Gitea's default prefixes", () => {
    expect(isWorkInProgress('WIP: thing')).toBe(true);
    expect(isWorkInProgress('[wip] thing')).toBe(true);
    expect(isWorkInProgress('Wipe the cache')).toBe(false);
  });
});
