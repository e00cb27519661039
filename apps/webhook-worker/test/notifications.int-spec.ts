import { jest } from '@jest/globals';
import type { AccountRef, IssueParticipants, NotificationAudienceRequest } from '@gitforge/contracts';
import type { Database, DirectoryClient, QueueDriver, RpcClient } from '@gitforge/platform';
import { NotificationEntity, NotificationSource, NotificationStatus } from '../src/notifications/notification.entity.js';
import { NotificationProjector } from '../src/notifications/notification.projector.js';
import { NotificationsRepository } from '../src/notifications/notifications.repository.js';
import { comment, envelope, issue, repo, user } from './fixtures.js';
import { openWebhookTestDatabase, type WebhookTestDatabase } from './support/database.js';
import { untilLockWaiter } from '@gitforge/platform/testing';

/**
 * The projector on a real database. The other services' answers (who takes part, who may read)
 * come from small fakes that record the requests, so the test sees what was asked.
 */
describe.each(['sqlite', 'postgres'] as const)('NotificationProjector on %s', (engine) => {
  let opened: WebhookTestDatabase | undefined;
  let db: Database;
  let threads: NotificationsRepository;
  let sut: NotificationProjector;
  const audienceRequests: NotificationAudienceRequest[] = [];
  let participants: IssueParticipants;
  let readers: number[];

  const owner = user(1, 'owner');
  const poster = user(2, 'poster');
  const commenter = user(3, 'commenter');
  const r = repo(7, owner, 'project', { url: 'http://forge.test/api/v1/repos/owner/project' });

  beforeAll(async () => {
    opened = await openWebhookTestDatabase(engine, 'notifications');
    db = opened.db;
    threads = new NotificationsRepository(db);
    const rpc = {
      call: async (pattern: string, req: { body: unknown }) => {
        if (pattern === 'issues.subscriptions.participants') return participants;
        if (pattern === 'repos.notificationAudience') {
          const body = req.body as NotificationAudienceRequest;
          audienceRequests.push(body);
          return readers;
        }
        throw new Error(`unexpected call ${pattern}`);
      },
    } as unknown as RpcClient;
    const directory = { accountsByNames: async (_a: unknown, names: string[]) => names.map((n, i) => ({ id: 50 + i, login: n, kind: 'user' }) as AccountRef) } as unknown as DirectoryClient;
    sut = new NotificationProjector({} as QueueDriver, db, threads, rpc, directory, opened.config);
  });

  afterAll(async () => {
    await opened?.close();
  });

  beforeEach(() => {
    audienceRequests.length = 0;
    participants = { followers: [2, 3], unsubscribed: [], assignees: [4], reviewers: [], latestCommentId: 0 };
  });

  const rowsOf = (issueId: number) => db.manager.find(NotificationEntity, { where: { subjectKey: `issue:${issueId}` }, order: { userId: 'ASC' } });

  it('should write one unread thread per reader, and nothing more when the event comes again', async () => {
    const i = issue(1, r, poster);
    const c = comment(900, i, commenter, 'ping @mentioned');
    participants.latestCommentId = c.id;
    readers = [1, 2, 4, 50];
    const event = { ...envelope('comment.created', { action: 'created', issue: i, comment: c, repository: r, sender: commenter, is_pull: false }, r.id), actor: { id: 3, login: 'commenter' } };
    await sut.handle(event);
    // The actor is never asked about; the mentioned user is, and the watchers are added by repo-service.
    expect(audienceRequests).toEqual([{ repoId: r.id, userIds: expect.arrayContaining([2, 4, 50]), unit: 'repo.issues', withWatchers: true }]);
    expect(audienceRequests[0]!.userIds).not.toContain(3);
    const rows = await rowsOf(i.id);
    expect(rows.map((t) => [t.userId, t.status, t.source])).toEqual([1, 2, 4, 50].map((id) => [id, NotificationStatus.unread, NotificationSource.issue]));
    expect(rows[0]).toMatchObject({ title: i.title, state: 'open', latestCommentUrl: `${r.url}/issues/comments/900`, latestCommentHtmlUrl: c.html_url });

    await db.transaction((m) => threads.setStatus(m, [rows[0]!.id], NotificationStatus.read, new Date()));
    await sut.handle(event);
    expect((await rowsOf(i.id)).map((t) => t.status)).toEqual([NotificationStatus.read, NotificationStatus.unread, NotificationStatus.unread, NotificationStatus.unread]);
  });

  it('should turn read threads unread on new activity, keep pinned ones pinned, and let no older event overwrite the subject', async () => {
    const i = issue(2, r, poster);
    readers = [1, 2];
    await sut.handle({ ...envelope('issue.opened', { action: 'opened', index: 2, issue: i, repository: r, sender: poster, is_pull: false }), occurredAt: '2024-05-01T10:00:00.000Z' });
    const [first, second] = await rowsOf(i.id);
    await db.transaction(async (m) => {
      await threads.setStatus(m, [first!.id], NotificationStatus.read, new Date());
      await threads.setStatus(m, [second!.id], NotificationStatus.pinned, new Date());
    });
    const closed = { ...i, state: 'closed' as const };
    await sut.handle({ ...envelope('issue.closed', { action: 'closed', index: 2, issue: closed, repository: r, sender: owner, is_pull: false }), occurredAt: '2024-05-01T12:00:00.000Z' });
    // A late edit from before the close changes nothing it shows.
    await sut.handle({ ...envelope('issue.edited', { action: 'edited', index: 2, issue: { ...i, title: 'old title' }, repository: r, sender: owner, is_pull: false }), occurredAt: '2024-05-01T11:00:00.000Z' });
    const after = await rowsOf(i.id);
    expect(after.map((t) => [t.status, t.state, t.title])).toEqual([
      [NotificationStatus.unread, 'closed', i.title],
      [NotificationStatus.pinned, 'closed', i.title],
    ]);
  });

  it('should write the threads of a large audience in several statements', async () => {
    const i = issue(3, r, poster);
    readers = Array.from({ length: 1_234 }, (_, n) => 1_000 + n);
    await sut.handle(envelope('issue.opened', { action: 'opened', index: 3, issue: i, repository: r, sender: poster, is_pull: false }));
    expect(await db.manager.count(NotificationEntity, { where: { subjectKey: `issue:${i.id}` } })).toBe(1_234);
  });

  it("should drop a deleted issue's threads and a deleted repository's", async () => {
    const i = issue(4, r, poster);
    readers = [1];
    await sut.handle(envelope('issue.opened', { action: 'opened', index: 4, issue: i, repository: r, sender: poster, is_pull: false }));
    await sut.handle(envelope('issue.deleted', { action: 'deleted', index: 4, issue: i, repository: r, sender: owner, is_pull: false }));
    expect(await rowsOf(i.id)).toEqual([]);
    await sut.handle(envelope('repo.deleted', { repository: r, organization: null, sender: owner }, r.id));
    expect(await db.manager.count(NotificationEntity, { where: { repoId: r.id } })).toBe(0);
  });
  it('should show a thread first written by a late event as the newer events already show the subject', async () => {
    const i = issue(5, r, poster);
    readers = [1];
    const closed = { ...i, state: 'closed' as const };
    await sut.handle({ ...envelope('issue.closed', { action: 'closed', index: 5, issue: closed, repository: r, sender: owner, is_pull: false }), occurredAt: '2024-05-01T12:00:00.000Z' });
    // A comment from before the close, applied after it (a retried job), reaches one more reader.
    readers = [1, 60];
    const c = comment(905, i, commenter, 'ping');
    await sut.handle({ ...envelope('comment.created', { action: 'created', issue: i, comment: c, repository: r, sender: commenter, is_pull: false }, r.id), occurredAt: '2024-05-01T11:00:00.000Z' });
    expect((await rowsOf(i.id)).map((t) => [t.userId, t.state])).toEqual([
      [1, 'closed'],
      [60, 'closed'],
    ]);
  });

  it('should write no thread about an issue that is gone by the time a late event is applied', async () => {
    const i = issue(6, r, poster);
    readers = [1, 50];
    participants = { followers: [], unsubscribed: [], assignees: [], reviewers: [], latestCommentId: 0, gone: true };
    const c = comment(906, i, commenter, 'ping @mentioned');
    await sut.handle(envelope('comment.created', { action: 'created', issue: i, comment: c, repository: r, sender: commenter, is_pull: false }, r.id));
    await sut.handle(envelope('issue.assigned', { action: 'assigned', index: 6, issue: i, assignee: user(4, 'assignee'), repository: r, sender: owner, is_pull: false }, r.id));
    expect(await rowsOf(i.id)).toEqual([]);
  });
  (engine === 'postgres' ? it : it.skip)('should apply two events about one subject at once without a deadlock', async () => {
    const i = issue(7, r, poster);
    readers = [1, 2];
    await sut.handle(envelope('issue.opened', { action: 'opened', index: 7, issue: i, repository: r, sender: poster, is_pull: false }));
    // The first event's transaction stops before it refreshes the subject, until the second waits on it.
    const refresh = threads.refreshSubject.bind(threads);
    let reached!: () => void;
    const atRefresh = new Promise<void>((done) => (reached = done));
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    const spy = jest.spyOn(threads, 'refreshSubject').mockImplementationOnce(async (m, subject) => {
      reached();
      await gate;
      return refresh(m, subject);
    });
    try {
      readers = [2];
      const first = sut.handle(envelope('comment.created', { action: 'created', issue: i, comment: comment(907, i, poster, 'one'), repository: r, sender: poster, is_pull: false }, r.id));
      await atRefresh;
      readers = [1];
      const second = sut.handle(envelope('comment.created', { action: 'created', issue: i, comment: comment(908, i, owner, 'two'), repository: r, sender: owner, is_pull: false }, r.id));
      await untilLockWaiter(db, 'the second event');
      release();
      await Promise.all([first, second]);
    } finally {
      spy.mockRestore();
    }
    expect((await rowsOf(i.id)).map((t) => t.userId)).toEqual([1, 2]);
  });
});
