import type {
  Comment,
  CreateIssueCommentOption,
  CreateIssueOption,
  EditIssueCommentOption,
  EditReactionOption,
  Issue,
  Reaction,
  Repository,
  TimelineComment,
  User,
  WatchInfo,
} from '@gitforge/contracts';
import { Api, createUser, giteaError, uniqueName, type TestUser } from './support/api.js';
import { Layout, layoutsUnderTest } from './support/layout.js';

describe.each(layoutsUnderTest())(
  'issue comments, timeline, reactions and subscriptions (%s layout)',
  (kind) => {
    let layout: Layout;
    let api: Api;
    /** Owner of the repository. */
    let alice: TestUser;
    /** A collaborator with write access. */
    let bob: TestUser;
    /** A reader of the public repository who opened the issue. */
    let carol: TestUser;
    /** Another reader, a stranger to the issue. */
    let dave: TestUser;
    let repo: Repository;
    let issue: Issue;

    beforeAll(async () => {
      layout = await Layout.start(kind);
      api = new Api(layout);
      [alice, bob, carol, dave] = await Promise.all([
        createUser(api, 'alice'),
        createUser(api, 'bob'),
        createUser(api, 'carol'),
        createUser(api, 'dave'),
      ]);
      repo = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('talk') })).body;
      expect(
        (
          await alice.api.put(`/repos/${repo.full_name}/collaborators/${bob.username}`, {
            permission: 'write',
          })
        ).status,
      ).toBe(204);
      issue = await openIssue(carol, 'Where are the docs?');
    });

    afterAll(async () => {
      await layout?.stop();
    });

    async function openIssue(as: TestUser, title: string, on: Repository = repo): Promise<Issue> {
      const res = await as.api.post<Issue>(`/repos/${on.full_name}/issues`, {
        title,
      } satisfies CreateIssueOption);
      expect(res.status).toBe(201);
      return res.body;
    }

    const comments = (n: number = issue.number, as: Api = alice.api, query = '') =>
      as.get<Comment[]>(`/repos/${repo.full_name}/issues/${n}/comments${query}`);
    const comment = (as: Api, body: string, n: number = issue.number, on: Repository = repo) =>
      as.post<Comment>(`/repos/${on.full_name}/issues/${n}/comments`, {
        body,
      } satisfies CreateIssueCommentOption);
    const getIssue = async (n: number = issue.number) =>
      (await alice.api.get<Issue>(`/repos/${repo.full_name}/issues/${n}`)).body;

    describe('comments', () => {
      it("should create a comment (201) with Gitea's shape, counted on the issue and bumping its update time", async () => {
        const before = await getIssue();
        const res = await comment(dave.api, `Me too, @${bob.username}`);
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          id: expect.any(Number),
          html_url: `${repo.html_url}/issues/${issue.number}#issuecomment-${res.body.id}`,
          issue_url: `${repo.html_url}/issues/${issue.number}`,
          pull_request_url: '',
          user: expect.objectContaining({ id: dave.id, login: dave.username }),
          original_author: '',
          original_author_id: 0,
          body: `Me too, @${bob.username}`,
          assets: [],
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
          updated_at: res.body.created_at,
        });
        const after = await getIssue();
        expect(after.comments).toBe(before.comments + 1);
        expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
        // The mention is recorded: the issue is found by mentioned_by.
        const mentioned = await alice.api.get<Issue[]>(
          `/repos/${repo.full_name}/issues?mentioned_by=${bob.username}`,
        );
        expect(mentioned.body.map((i) => i.number)).toContain(issue.number);
      });

      it('should list the comments of an issue oldest first, with X-Total-Count and no Link, filtered by since/before', async () => {
        const first = (await comment(bob.api, 'first answer')).body;
        await new Promise((r) => setTimeout(r, 1100));
        const second = (await comment(carol.api, 'second answer')).body;
        const all = await comments();
        expect(all.status).toBe(200);
        expect(all.headers.get('link')).toBeNull();
        expect(all.headers.get('x-total-count')).toBe(String(all.body.length));
        const ids = all.body.map((c) => c.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));

        const since = await comments(
          issue.number,
          carol.api,
          `?since=${encodeURIComponent(second.created_at)}`,
        );
        expect(since.body.map((c) => c.id)).toEqual([second.id]);
        const before = await comments(
          issue.number,
          carol.api,
          `?before=${encodeURIComponent(first.updated_at)}`,
        );
        expect(before.body.map((c) => c.id)).toContain(first.id);
        expect(before.body.map((c) => c.id)).not.toContain(second.id);

        const bad = await comments(issue.number, carol.api, '?since=yesterday');
        expect(bad.status).toBe(422);
        expect(bad.body).toEqual(giteaError(/cannot parse/));
      });

      it('should get one comment by id, and answer 404 for unknown ids and for comments of another repository', async () => {
        const made = (await comment(carol.api, 'look here')).body;
        const got = await api.anonymous.get<Comment>(`/repos/${repo.full_name}/issues/comments/${made.id}`);
        expect(got.status).toBe(200);
        expect(got.body).toEqual(made);
        const unknown = await alice.api.get(`/repos/${repo.full_name}/issues/comments/999999999`);
        expect(unknown.status).toBe(404);
        expect(unknown.body).toEqual(giteaError('comment does not exist [id: 999999999, issue_id: 0]'));
        const other = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('other') })).body;
        expect((await alice.api.get(`/repos/${other.full_name}/issues/comments/${made.id}`)).status).toBe(
          404,
        );
      });

      it('should let the poster and writers edit a comment (200), not others (403), and require a body', async () => {
        const made = (await comment(carol.api, 'typo heer')).body;
        const path = `/repos/${repo.full_name}/issues/comments/${made.id}`;
        const byPoster = await carol.api.patch<Comment>(path, {
          body: 'typo here',
        } satisfies EditIssueCommentOption);
        expect(byPoster.status).toBe(200);
        expect(byPoster.body).toMatchObject({
          id: made.id,
          body: 'typo here',
          user: expect.objectContaining({ login: carol.username }),
        });
        expect((await bob.api.patch<Comment>(path, { body: 'edited by a writer' })).body.body).toBe(
          'edited by a writer',
        );
        // The deprecated route ignores the issue number.
        const deprecated = await carol.api.patch<Comment>(
          `/repos/${repo.full_name}/issues/999/comments/${made.id}`,
          { body: 'again' },
        );
        expect(deprecated.status).toBe(200);
        expect(deprecated.body.body).toBe('again');

        const refused = await dave.api.patch(path, { body: 'not mine' });
        expect(refused.status).toBe(403);
        expect(refused.text).toBe('');
        expect((await api.anonymous.patch(path, { body: 'anonymous' })).status).toBe(401);
        const empty = await carol.api.patch(path, { body: '' });
        expect(empty.status).toBe(422);
        expect(empty.body).toEqual(giteaError('[Body]: Required'));
        expect((await alice.api.get<Comment>(path)).body.body).toBe('again');
      });

      it('should let the poster and writers delete a comment (204), keeping the count exact', async () => {
        const target = await openIssue(carol, 'short-lived talk');
        const mine = (await comment(dave.api, 'one')).body;
        const [a, b, c] = await Promise.all(
          ['a', 'b', 'c'].map(async (body) => (await comment(dave.api, body, target.number)).body),
        );
        expect((await getIssue(target.number)).comments).toBe(3);

        const path = (id: number) => `/repos/${repo.full_name}/issues/comments/${id}`;
        const refused = await carol.api.delete(path(a!.id));
        expect(refused.status).toBe(403);
        expect(refused.text).toBe('');
        expect((await api.anonymous.delete(path(a!.id))).status).toBe(401);
        expect((await dave.api.delete(path(a!.id))).status).toBe(204);
        expect(
          (await bob.api.delete(`/repos/${repo.full_name}/issues/${target.number}/comments/${b!.id}`)).status,
        ).toBe(204);
        expect((await alice.api.delete(path(a!.id))).status).toBe(404);
        expect((await getIssue(target.number)).comments).toBe(1);
        expect((await comments(target.number)).body.map((x) => x.id)).toEqual([c!.id]);
        expect((await alice.api.get(path(mine.id))).status).toBe(200);
      });

      it('should list the comments of the whole repository a page at a time, with X-Total-Count and no Link', async () => {
        const page = await carol.api.get<Comment[]>(
          `/repos/${repo.full_name}/issues/comments?limit=2&page=1`,
        );
        expect(page.status).toBe(200);
        expect(page.body).toHaveLength(2);
        expect(page.headers.get('link')).toBeNull();
        const total = Number(page.headers.get('x-total-count'));
        const all = await carol.api.get<Comment[]>(`/repos/${repo.full_name}/issues/comments?limit=50`);
        expect(all.body).toHaveLength(total);
        expect(all.body.slice(0, 2)).toEqual(page.body);
        expect(new Set(all.body.map((c) => c.issue_url.replace(/\/issues\/\d+$/, '')))).toEqual(
          new Set([repo.html_url]),
        );
      });

      it('should refuse comments on a locked issue to non-writers (403), not to writers', async () => {
        const locked = await openIssue(carol, 'heated');
        expect(
          (
            await alice.api.put(`/repos/${repo.full_name}/issues/${locked.number}/lock`, {
              lock_reason: 'Too heated',
            })
          ).status,
        ).toBe(204);
        const refused = await comment(carol.api, 'but…', locked.number);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual(giteaError('You cannot comment on a locked issue.'));
        expect((await comment(bob.api, 'calm down', locked.number)).status).toBe(201);
        expect((await comment(api.admin, 'site admin here', locked.number)).status).toBe(201);
        const reaction = await carol.api.post(`/repos/${repo.full_name}/issues/${locked.number}/reactions`, {
          content: 'heart',
        } satisfies EditReactionOption);
        expect(reaction.status).toBe(403);
        expect(reaction.body).toEqual(giteaError('no permission to change reaction'));
        expect(
          (
            await bob.api.post(`/repos/${repo.full_name}/issues/${locked.number}/reactions`, {
              content: 'heart',
            })
          ).status,
        ).toBe(201);
      });

      it('should delete the comments of a deleted issue', async () => {
        const doomed = await openIssue(carol, 'to be deleted');
        const made = (await comment(carol.api, 'gone soon', doomed.number)).body;
        expect((await alice.api.delete(`/repos/${repo.full_name}/issues/${doomed.number}`)).status).toBe(204);
        expect((await alice.api.get(`/repos/${repo.full_name}/issues/comments/${made.id}`)).status).toBe(404);
      });
    });

    describe('timeline', () => {
      it('should list comments and state changes in order, as TimelineComment', async () => {
        const story = await openIssue(carol, 'a story');
        const said = (await comment(carol.api, 'once upon a time', story.number)).body;
        expect(
          (await carol.api.patch(`/repos/${repo.full_name}/issues/${story.number}`, { state: 'closed' }))
            .status,
        ).toBe(201);
        expect(
          (await bob.api.patch(`/repos/${repo.full_name}/issues/${story.number}`, { state: 'open' })).status,
        ).toBe(201);
        const res = await api.anonymous.get<TimelineComment[]>(
          `/repos/${repo.full_name}/issues/${story.number}/timeline`,
        );
        expect(res.status).toBe(200);
        expect(res.headers.get('x-total-count')).toBe('3');
        expect(res.headers.get('link')).toBeNull();
        expect(res.body.map((t) => [t.type, t.user?.login])).toEqual([
          ['comment', carol.username],
          ['close', carol.username],
          ['reopen', bob.username],
        ]);
        expect(res.body[0]).toMatchObject({
          id: said.id,
          body: 'once upon a time',
          html_url: said.html_url,
          issue_url: said.issue_url,
          pull_request_url: '',
          ref_action: 'none',
          label: null,
          milestone: null,
          removed_assignee: false,
        });
        // A history row that is not a comment is no comment: Gitea answers 204.
        const closeRow = await alice.api.get(`/repos/${repo.full_name}/issues/comments/${res.body[1]!.id}`);
        expect(closeRow.status).toBe(204);
        expect(closeRow.text).toBe('');
        // Only comments count as comments.
        expect((await getIssue(story.number)).comments).toBe(1);

        // An issue opened closed starts its history with the close.
        const born = await bob.api.post<Issue>(`/repos/${repo.full_name}/issues`, {
          title: 'closed at birth',
          closed: true,
        } satisfies CreateIssueOption);
        const bornTimeline = await bob.api.get<TimelineComment[]>(
          `/repos/${repo.full_name}/issues/${born.body.number}/timeline`,
        );
        expect(bornTimeline.body.map((t) => [t.type, t.user?.login])).toEqual([['close', bob.username]]);

        const paged = await carol.api.get<TimelineComment[]>(
          `/repos/${repo.full_name}/issues/${story.number}/timeline?limit=2&page=2`,
        );
        expect(paged.body.map((t) => t.type)).toEqual(['reopen']);
        expect(paged.headers.get('x-total-count')).toBe('1');

        // Nothing to show is JSON null, as Gitea marshals the list it never allocated.
        const quiet = await openIssue(carol, 'nothing happened');
        const none = await carol.api.get(`/repos/${repo.full_name}/issues/${quiet.number}/timeline`);
        expect(none.status).toBe(200);
        expect(none.text).toBe('null');
        expect(none.headers.get('x-total-count')).toBe('0');
      });
    });

    describe('timeline events', () => {
      it("should record labels, milestones, assignees, titles, refs, due dates, locks, pins and dependencies as Gitea's comment types", async () => {
        const saga = await openIssue(carol, 'a saga');
        const other = await openIssue(carol, 'a prequel');
        const at = (n: number, tail = '') => `/repos/${repo.full_name}/issues/${n}${tail}`;
        const label = (await alice.api.post<{ id: number }>(`/repos/${repo.full_name}/labels`, { name: uniqueName('saga'), color: '#aabbcc' })).body;
        const [first, second] = await Promise.all(
          ['v1', 'v2'].map(async (t) => (await alice.api.post<{ id: number; title: string }>(`/repos/${repo.full_name}/milestones`, { title: uniqueName(t) })).body),
        );
        expect((await bob.api.post(at(saga.number, '/labels'), { labels: [label.id] })).status).toBe(200);
        expect((await bob.api.delete(at(saga.number, `/labels/${label.id}`))).status).toBe(204);
        expect(
          (
            await bob.api.patch(at(saga.number), {
              title: 'a longer saga',
              ref: 'refs/heads/dev',
              due_date: '2026-05-01T10:00:00Z',
              milestone: first!.id,
              assignees: [bob.username],
            })
          ).status,
        ).toBe(201);
        expect((await bob.api.patch(at(saga.number), { milestone: second!.id, due_date: '2026-06-02T10:00:00Z' })).status).toBe(201);
        expect((await bob.api.patch(at(saga.number), { unset_due_date: true })).status).toBe(201);
        expect((await bob.api.post(at(saga.number, '/deadline'), { due_date: '2026-07-03T00:00:00Z' })).status).toBe(201);
        expect((await bob.api.delete(at(saga.number, '/assignees'), { assignees: [bob.username] })).status).toBe(200);
        expect((await alice.api.put(at(saga.number, '/lock'), { lock_reason: 'Too heated' })).status).toBe(204);
        expect((await alice.api.delete(at(saga.number, '/lock'))).status).toBe(204);
        expect((await alice.api.post(at(saga.number, '/pin'))).status).toBe(204);
        expect((await alice.api.delete(at(saga.number, '/pin'))).status).toBe(204);
        expect((await bob.api.post(at(saga.number, '/dependencies'), { index: other.number })).status).toBe(201);
        expect((await bob.api.delete(at(saga.number, '/dependencies'), { index: other.number })).status).toBe(201);

        const res = await api.anonymous.get<TimelineComment[]>(at(saga.number, '/timeline'));
        expect(res.status).toBe(200);
        const rows = res.body;
        expect(rows.map((t) => [t.type, t.user?.login])).toEqual([
          ['label', bob.username],
          ['label', bob.username],
          ['change_title', bob.username],
          ['change_issue_ref', bob.username],
          ['added_deadline', bob.username],
          ['assignees', bob.username],
          ['milestone', bob.username],
          ['modified_deadline', bob.username],
          ['milestone', bob.username],
          ['removed_deadline', bob.username],
          ['added_deadline', bob.username],
          ['assignees', bob.username],
          ['lock', alice.username],
          ['unlock', alice.username],
          ['pin', alice.username],
          ['unpin', alice.username],
          ['add_dependency', bob.username],
          ['remove_dependency', bob.username],
        ]);
        const [added, removed, title, ref, deadline, assigned, milestoned, moved, remilestoned, undated, dated, unassigned, locked, unlocked] = rows;
        expect(added).toMatchObject({ body: '1', label: { id: label.id, color: 'aabbcc' } });
        expect(removed).toMatchObject({ body: '', label: { id: label.id } });
        expect(title).toMatchObject({ old_title: 'a saga', new_title: 'a longer saga', body: '' });
        expect(ref).toMatchObject({ old_ref: '', new_ref: 'refs/heads/dev' });
        expect(deadline!.body).toBe('2026-05-01');
        expect(milestoned).toMatchObject({ old_milestone: null, milestone: { id: first!.id, title: first!.title, open_issues: 0 } });
        expect(assigned).toMatchObject({ assignee: { login: bob.username }, removed_assignee: false });
        expect(moved!.body).toBe('2026-06-02|2026-05-01');
        // The milestone as it is now, with its counts (the saga is open in the second one).
        expect(remilestoned).toMatchObject({ old_milestone: { id: first!.id }, milestone: { id: second!.id, open_issues: 1, closed_issues: 0 } });
        expect(undated!.body).toBe('2026-06-02');
        expect(dated!.body).toBe('2026-07-03');
        expect(unassigned).toMatchObject({ assignee: { login: bob.username }, removed_assignee: true });
        expect(locked!.body).toBe('Too heated');
        expect(unlocked!.body).toBe('');
        for (const row of rows.slice(-2)) expect(row.dependent_issue).toMatchObject({ number: other.number, title: 'a prequel' });
        for (const row of rows.slice(0, 2)) expect(row).toMatchObject({ milestone: null, assignee: null, dependent_issue: null });

        // Both ends of a dependency record it, each naming the other.
        const otherRows = (await carol.api.get<TimelineComment[]>(at(other.number, '/timeline'))).body;
        expect(otherRows.map((t) => [t.type, t.dependent_issue?.number])).toEqual([
          ['add_dependency', saga.number],
          ['remove_dependency', saga.number],
        ]);
        // None of these is a comment.
        expect((await comments(saga.number)).body).toEqual([]);
        expect((await getIssue(saga.number)).comments).toBe(0);
      });
    });

    describe('timeline events at creation and across repositories', () => {
      it("should start a new issue's history with its milestone, labels and assignees, as Gitea's NewIssue", async () => {
        const label = (await alice.api.post<{ id: number }>(`/repos/${repo.full_name}/labels`, { name: uniqueName('born'), color: '#010203' })).body;
        const milestone = (await alice.api.post<{ id: number }>(`/repos/${repo.full_name}/milestones`, { title: uniqueName('born') })).body;
        const born = await bob.api.post<Issue>(`/repos/${repo.full_name}/issues`, {
          title: 'born with everything',
          labels: [label.id],
          milestone: milestone.id,
          assignees: [bob.username],
        } satisfies CreateIssueOption);
        expect(born.status).toBe(201);
        const rows = (await bob.api.get<TimelineComment[]>(`/repos/${repo.full_name}/issues/${born.body.number}/timeline`)).body;
        expect(rows.map((t) => t.type)).toEqual(['milestone', 'label', 'assignees']);
        expect(rows[0]).toMatchObject({ old_milestone: null, milestone: { id: milestone.id, open_issues: 1 } });
        expect(rows[1]).toMatchObject({ body: '1', label: { id: label.id } });
        expect(rows[2]).toMatchObject({ assignee: { login: bob.username }, removed_assignee: false });
        expect((await getIssue(born.body.number)).comments).toBe(0);
      });

      it('should show a dependent issue only to those who can read it', async () => {
        const vault = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('vault'), private: true })).body;
        const hidden = await openIssue(alice, 'hidden prequel', vault);
        const shown = await openIssue(alice, 'public sequel');
        const link = await alice.api.post(`/repos/${repo.full_name}/issues/${shown.number}/dependencies`, {
          owner: alice.username,
          repo: vault.name,
          index: hidden.number,
        });
        expect(link.status).toBe(201);
        const path = `/repos/${repo.full_name}/issues/${shown.number}/timeline`;
        const mine = (await alice.api.get<TimelineComment[]>(path)).body;
        expect(mine.map((t) => [t.type, t.dependent_issue?.title])).toEqual([['add_dependency', 'hidden prequel']]);
        const theirs = (await api.anonymous.get<TimelineComment[]>(path)).body;
        expect(theirs.map((t) => [t.type, t.dependent_issue])).toEqual([['add_dependency', null]]);
        // The private end records it too, naming the public issue.
        const far = (await alice.api.get<TimelineComment[]>(`/repos/${vault.full_name}/issues/${hidden.number}/timeline`)).body;
        expect(far.map((t) => [t.type, t.dependent_issue?.number])).toEqual([['add_dependency', shown.number]]);
        // A deleted issue takes the rows naming it on other issues with it, as Gitea's deleteIssue.
        expect((await alice.api.delete(`/repos/${vault.full_name}/issues/${hidden.number}`)).status).toBe(204);
        expect((await alice.api.get<TimelineComment[]>(path)).body).toBeNull();
      });
    });

    describe('reactions', () => {
      it('should add (201, then 200), list and remove (204) reactions on an issue', async () => {
        const path = `/repos/${repo.full_name}/issues/${issue.number}/reactions`;
        const added = await dave.api.post<Reaction>(path, { content: '+1' } satisfies EditReactionOption);
        expect(added.status).toBe(201);
        expect(added.body).toEqual({
          user: expect.objectContaining({ login: dave.username }),
          content: '+1',
          created_at: expect.any(String),
        });
        const again = await dave.api.post<Reaction>(path, { content: '+1' });
        expect(again.status).toBe(200);
        expect(again.body).toEqual(added.body);
        expect((await carol.api.post(path, { content: 'rocket' })).status).toBe(201);

        const list = await api.anonymous.get<Reaction[]>(path);
        expect(list.status).toBe(200);
        expect(list.headers.get('x-total-count')).toBe('2');
        expect(list.body.map((r) => [r.user.login, r.content])).toEqual([
          [dave.username, '+1'],
          [carol.username, 'rocket'],
        ]);

        const removed = await dave.api.delete(path, { content: '+1' });
        expect(removed.status).toBe(204);
        expect(removed.text).toBe('');
        expect((await dave.api.delete(path, { content: '+1' })).status).toBe(204);
        expect((await api.anonymous.get<Reaction[]>(path)).body.map((r) => r.content)).toEqual(['rocket']);
        expect((await carol.api.delete(path, { content: 'rocket' })).status).toBe(204);
        // Gitea answers no reactions as null (a nil slice), with the count.
        const none = await api.anonymous.get(path);
        expect(none.text).toBe('null');
        expect(none.headers.get('x-total-count')).toBe('0');
      });

      it("should refuse contents outside Gitea's reactions (403) and anonymous callers (401)", async () => {
        const path = `/repos/${repo.full_name}/issues/${issue.number}/reactions`;
        const bad = await dave.api.post(path, { content: 'thumbsup' });
        expect(bad.status).toBe(403);
        expect(bad.body).toEqual(giteaError("'thumbsup' is not an allowed reaction"));
        expect((await dave.api.post(path, {})).body).toEqual(giteaError("'' is not an allowed reaction"));
        expect((await api.anonymous.post(path, { content: 'heart' })).status).toBe(401);
      });

      it('should react to comments, and drop their reactions with them', async () => {
        const made = (await comment(carol.api, 'react to me')).body;
        const path = `/repos/${repo.full_name}/issues/comments/${made.id}/reactions`;
        expect((await dave.api.post(path, { content: 'laugh' })).status).toBe(201);
        expect((await dave.api.post(path, { content: 'laugh' })).status).toBe(200);
        expect((await bob.api.post(path, { content: 'eyes' })).status).toBe(201);
        const list = await carol.api.get<Reaction[]>(path);
        expect(list.status).toBe(200);
        expect(list.body.map((r) => r.content)).toEqual(['laugh', 'eyes']);
        expect((await dave.api.delete(path, { content: 'laugh' })).status).toBe(204);
        expect((await carol.api.get<Reaction[]>(path)).body.map((r) => r.content)).toEqual(['eyes']);
        // The issue's own reactions are not the comment's.
        const own = await carol.api.get<Reaction[] | null>(
          `/repos/${repo.full_name}/issues/${issue.number}/reactions`,
        );
        expect((own.body ?? []).map((r) => r.content)).not.toContain('eyes');

        expect((await carol.api.delete(`/repos/${repo.full_name}/issues/comments/${made.id}`)).status).toBe(
          204,
        );
        expect((await carol.api.get(path)).status).toBe(404);
        expect(
          (
            await dave.api.post(`/repos/${repo.full_name}/issues/comments/999999999/reactions`, {
              content: 'eyes',
            })
          ).status,
        ).toBe(404);
      });
    });

    describe('subscriptions', () => {
      const base = () => `/repos/${repo.full_name}/issues/${issue.number}/subscriptions`;

      it('should count the poster as subscribed and others not, until they choose', async () => {
        const poster = await carol.api.get<WatchInfo>(`${base()}/check`);
        expect(poster.status).toBe(200);
        expect(poster.body).toEqual({
          subscribed: true,
          ignored: false,
          reason: null,
          created_at: issue.created_at,
          url: `${issue.url}/subscriptions`,
          repository_url: repo.url,
        });
        const fresh = await createUser(api, 'eve');
        expect((await fresh.api.get<WatchInfo>(`${base()}/check`)).body).toMatchObject({
          subscribed: false,
          ignored: true,
        });
        expect((await api.anonymous.get(`${base()}/check`)).status).toBe(401);
        // Commenting makes a participant, who follows the issue without choosing to.
        const talk = await openIssue(carol, 'participants');
        const check = `/repos/${repo.full_name}/issues/${talk.number}/subscriptions/check`;
        expect((await fresh.api.get<WatchInfo>(check)).body.subscribed).toBe(false);
        expect((await comment(fresh.api, 'count me in', talk.number)).status).toBe(201);
        expect((await fresh.api.get<WatchInfo>(check)).body.subscribed).toBe(true);
      });

      it('should subscribe (201, then 200) and unsubscribe (201, then 200) a user, listed with X-Total-Count', async () => {
        const eve = await createUser(api, 'eve');
        expect((await eve.api.put(`${base()}/${eve.username}`)).status).toBe(201);
        expect((await eve.api.put(`${base()}/${eve.username}`)).status).toBe(200);
        const list = await api.anonymous.get<User[]>(base());
        expect(list.status).toBe(200);
        expect(list.headers.get('link')).toBeNull();
        expect(list.body.map((u) => u.login)).toContain(eve.username);
        expect(list.headers.get('x-total-count')).toBe(String(list.body.length));
        expect((await eve.api.get<WatchInfo>(`${base()}/check`)).body.subscribed).toBe(true);

        expect((await eve.api.delete(`${base()}/${eve.username}`)).status).toBe(201);
        expect((await eve.api.delete(`${base()}/${eve.username}`)).status).toBe(200);
        expect((await eve.api.get<WatchInfo>(`${base()}/check`)).body.subscribed).toBe(false);
        expect((await api.anonymous.get<User[]>(base())).body.map((u) => u.login)).not.toContain(
          eve.username,
        );

        // The poster may unsubscribe from their own issue.
        expect((await carol.api.delete(`${base()}/${carol.username}`)).status).toBe(201);
        expect((await carol.api.get<WatchInfo>(`${base()}/check`)).body.subscribed).toBe(false);
      });

      it('should let only the user themself or a site admin change a subscription (403), and 404 unknown users', async () => {
        const frank = await createUser(api, 'frank');
        const denied = await dave.api.put(`${base()}/${frank.username}`);
        expect(denied.status).toBe(403);
        expect(denied.body).toEqual(
          giteaError(`${dave.username} is not permitted to change subscriptions for ${frank.username}`),
        );
        expect((await dave.api.delete(`${base()}/${frank.username}`)).status).toBe(403);
        expect((await frank.api.get<WatchInfo>(`${base()}/check`)).body.subscribed).toBe(false);
        expect((await api.admin.put(`${base()}/${frank.username}`)).status).toBe(201);
        expect((await frank.api.get<WatchInfo>(`${base()}/check`)).body.subscribed).toBe(true);
        expect((await dave.api.put(`${base()}/${uniqueName('nobody')}`)).status).toBe(404);
        expect((await api.anonymous.put(`${base()}/${frank.username}`)).status).toBe(401);
      });
    });

    it("should keep every issue's comment count equal to its comments", async () => {
      const all = await alice.api.get<Issue[]>(`/repos/${repo.full_name}/issues?state=all&limit=50`);
      expect(all.body.length).toBeGreaterThan(3);
      for (const i of all.body) {
        const listed = await comments(i.number);
        expect([i.number, i.comments]).toEqual([i.number, listed.body.length]);
      }
    });

    describe('private and archived repositories', () => {
      it('should hide the comments, reactions and subscriptions of a private repository from outsiders (404)', async () => {
        const secret = (
          await alice.api.post<Repository>('/user/repos', { name: uniqueName('secret'), private: true })
        ).body;
        const hidden = await openIssue(alice, 'private talk', secret);
        const made = (await comment(alice.api, 'between us', hidden.number, secret)).body;
        const paths = [
          `/repos/${secret.full_name}/issues/${hidden.number}/comments`,
          `/repos/${secret.full_name}/issues/comments`,
          `/repos/${secret.full_name}/issues/comments/${made.id}`,
          `/repos/${secret.full_name}/issues/comments/${made.id}/reactions`,
          `/repos/${secret.full_name}/issues/${hidden.number}/timeline`,
          `/repos/${secret.full_name}/issues/${hidden.number}/reactions`,
          `/repos/${secret.full_name}/issues/${hidden.number}/subscriptions`,
        ];
        for (const path of paths) {
          expect([path, (await dave.api.get(path)).status]).toEqual([path, 404]);
          expect([path, (await api.anonymous.get(path)).status]).toEqual([path, 404]);
          expect([path, (await alice.api.get(path)).status]).toEqual([path, 200]);
        }
        expect((await comment(dave.api, 'let me in', hidden.number, secret)).status).toBe(404);
        expect(
          (
            await dave.api.post(`/repos/${secret.full_name}/issues/${hidden.number}/reactions`, {
              content: 'eyes',
            })
          ).status,
        ).toBe(404);
      });

      it('should refuse every comment and reaction change in an archived repository (423)', async () => {
        const old = (await alice.api.post<Repository>('/user/repos', { name: uniqueName('old') })).body;
        const story = await openIssue(carol, 'archived talk', old);
        const made = (await comment(carol.api, 'before the archive', story.number, old)).body;
        expect((await alice.api.patch(`/repos/${old.full_name}`, { archived: true })).status).toBe(200);

        const created = await comment(carol.api, 'after the archive', story.number, old);
        expect(created.status).toBe(423);
        expect(created.body).toEqual(giteaError('repo is archived'));
        expect(
          (await carol.api.patch(`/repos/${old.full_name}/issues/comments/${made.id}`, { body: 'x' })).status,
        ).toBe(423);
        expect((await carol.api.delete(`/repos/${old.full_name}/issues/comments/${made.id}`)).status).toBe(
          423,
        );
        expect(
          (
            await carol.api.post(`/repos/${old.full_name}/issues/${story.number}/reactions`, {
              content: 'eyes',
            })
          ).status,
        ).toBe(423);
        expect(
          (
            await carol.api.post(`/repos/${old.full_name}/issues/comments/${made.id}/reactions`, {
              content: 'eyes',
            })
          ).status,
        ).toBe(423);
        expect(
          (
            await carol.api.get<Comment[]>(`/repos/${old.full_name}/issues/${story.number}/comments`)
          ).body.map((c) => c.body),
        ).toEqual(['before the archive']);
      });
    });
  },
);
