import type { RepoAccess } from '@gitforge/contracts';
import type { IssueEntity } from '../issues/issue.entity.js';
import type { StopwatchEntity } from './stopwatch.entity.js';
import { toStopWatch, toTrackedTime } from './time.mapper.js';
import type { TrackedTimeEntity } from './tracked-time.entity.js';

describe(toStopWatch.name, () => {
  const issue = { idx: 4, title: 'Fix it' } as IssueEntity;
  const repo = { ownerLogin: 'alice', name: 'tools' } as RepoAccess;

  it('should count whole seconds up to now and word them as Gitea does', () => {
    const sw = { createdAt: new Date('2026-01-01T10:00:00.900Z') } as StopwatchEntity;
    expect(toStopWatch(sw, issue, repo, new Date('2026-01-01T11:01:05.100Z'))).toEqual({
      created: '2026-01-01T10:00:00Z',
      seconds: 3665,
      duration: '1 hour 1 minute',
      issue_index: 4,
      issue_title: 'Fix it',
      repo_owner_name: 'alice',
      repo_name: 'tools',
    });
  });

  it('should never count below zero when clocks disagree', () => {
    const sw = { createdAt: new Date('2026-01-01T10:00:05Z') } as StopwatchEntity;
    expect(toStopWatch(sw, issue, repo, new Date('2026-01-01T10:00:00Z'))).toMatchObject({ seconds: 0, duration: '' });
  });
});

describe(toTrackedTime.name, () => {
  it('should keep the deprecated ids beside the user name and the issue', () => {
    const t = { id: 3, issueId: 8, userId: 5, time: -60, createdAt: new Date('2000-01-11T14:53:38Z'), deleted: false } as TrackedTimeEntity;
    expect(toTrackedTime(t, { userName: 'bob', issue: null })).toEqual({
      id: 3,
      created: '2000-01-11T14:53:38Z',
      time: -60,
      user_id: 5,
      user_name: 'bob',
      issue_id: 8,
      issue: null,
    });
  });
});
