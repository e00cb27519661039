import { eventsArray, hasEvent, parseSettings, settingsFromEvents } from './hook-events.js';

describe('hook events', () => {
  it('should subscribe to push only when no events are given', () => {
    const s = settingsFromEvents(undefined);
    expect(eventsArray(s)).toEqual(['push']);
    expect(hasEvent(s, 'push')).toBe(true);
    expect(hasEvent(s, 'create')).toBe(false);
    expect(eventsArray(settingsFromEvents([]))).toEqual(['push']);
  });

  it('should expand the group words issues and pull_request', () => {
    const s = settingsFromEvents(['issues', 'pull_request']);
    expect(eventsArray(s)).toEqual([
      'issues',
      'issue_assign',
      'issue_label',
      'issue_milestone',
      'issue_comment',
      'pull_request',
      'pull_request_assign',
      'pull_request_label',
      'pull_request_milestone',
      'pull_request_comment',
      'pull_request_review',
      'pull_request_review_request',
      'pull_request_sync',
    ]);
    expect(hasEvent(s, 'pull_request_review_approved')).toBe(true);
  });

  it('should select only the main event for issues_only and pull_request_only', () => {
    expect(eventsArray(settingsFromEvents(['issues_only', 'pull_request_only']))).toEqual(['issues', 'pull_request']);
  });

  it('should compare event names case-insensitively and ignore unknown ones', () => {
    expect(eventsArray(settingsFromEvents(['PUSH', 'Create', 'nonsense']))).toEqual(['create', 'push']);
  });

  it('should route review events through pull_request_review', () => {
    const s = settingsFromEvents(['pull_request_review']);
    expect(hasEvent(s, 'pull_request_review_rejected')).toBe(true);
    expect(hasEvent(s, 'pull_request_review_request')).toBe(false);
  });

  it('should honour the legacy push_only and send_everything switches', () => {
    expect(eventsArray(parseSettings(JSON.stringify({ push_only: true })))).toEqual(['push']);
    const all = parseSettings(JSON.stringify({ send_everything: true }));
    expect(hasEvent(all, 'release')).toBe(true);
    expect(eventsArray(all)).toContain('workflow_job');
  });
});
