import { commit, envelope, repo, user } from '../../../test/fixtures.js';
import { buildHookPayload, coarseEvent } from './webhook-payloads.js';

const ann = user(1, 'ann');
const acme = user(9, 'acme');
const proj = repo(5, acme, 'proj');

describe('webhook payloads', () => {
  it("should turn a push into Gitea's push payload on its branch", () => {
    const c = commit('a'.repeat(40), 'fix it');
    const built = buildHookPayload(
      envelope('repo.pushed', {
        ref: 'refs/heads/main',
        before: 'b'.repeat(40),
        after: 'a'.repeat(40),
        compare_url: `${proj.html_url}/compare/bbb...aaa`,
        commits: [c],
        total_commits: 1,
        head_commit: c,
        repository: proj,
        pusher: ann,
        sender: ann,
      }),
    )!;
    expect(built).toMatchObject({ event: 'push', repoId: 5, ownerId: 9, ref: 'refs/heads/main', chatTypesSkip: false });
    expect(Object.keys(built.payload)).toEqual([
      'ref',
      'before',
      'after',
      'compare_url',
      'commits',
      'total_commits',
      'head_commit',
      'repository',
      'pusher',
      'sender',
    ]);
  });

  it('should keep pushes without commits from chat hooks, and give tag pushes their full ref for branch filters', () => {
    const built = buildHookPayload(
      envelope('repo.pushed', {
        ref: 'refs/tags/v1',
        before: '0'.repeat(40),
        after: 'a'.repeat(40),
        compare_url: '',
        commits: [],
        total_commits: 0,
        head_commit: null,
        repository: proj,
        pusher: ann,
        sender: ann,
      }),
    )!;
    expect(built).toMatchObject({ ref: 'refs/tags/v1', chatTypesSkip: true });
  });

  it('should map ref creation and deletion to create and delete payloads with short ref names, filtered by their full ref', () => {
    const created = buildHookPayload(envelope('repo.ref_created', { ref: 'feature/x', ref_type: 'branch', sha: 'c'.repeat(40), repository: proj, sender: ann }))!;
    expect(created).toMatchObject({ event: 'create', ref: 'refs/heads/feature/x' });
    expect(created.payload).toEqual({ sha: 'c'.repeat(40), ref: 'feature/x', ref_type: 'branch', repository: proj, sender: ann });
    const deleted = buildHookPayload(envelope('repo.ref_deleted', { ref: 'v1', ref_type: 'tag', pusher_type: 'user', repository: proj, sender: ann }))!;
    expect(deleted).toMatchObject({ event: 'delete', ref: 'refs/tags/v1' });
    expect(deleted.payload).toEqual({ ref: 'v1', ref_type: 'tag', pusher_type: 'user', repository: proj, sender: ann });
  });

  it('should send repository events with the owner as organization, and none for a rename (Gitea has none)', () => {
    const created = buildHookPayload(envelope('repo.created', { repository: proj, organization: null, sender: ann }))!;
    expect(created).toMatchObject({ event: 'repository', indent: 1 });
    expect(created.payload).toEqual({ action: 'created', repository: proj, organization: acme, sender: ann });
    expect(buildHookPayload(envelope('repo.renamed', { repository: proj, oldName: 'old', sender: ann }))).toBeNull();
    expect(buildHookPayload(envelope('repo.deleted', { repository: proj, organization: null, sender: ann }))!.payload).toMatchObject({ action: 'deleted' });
  });

  it("should send a reported commit status as Gitea's status payload, in its field order, outside branch filters", () => {
    const c = commit('a'.repeat(40), 'fix it');
    const status = {
      id: 42,
      sha: c.id,
      state: 'success',
      context: 'ci/build',
      description: 'passed',
      target_url: 'https://ci.example.com/1',
      created_at: '2026-01-02T03:04:05Z',
      updated_at: '2026-01-02T03:04:05Z',
      commit: c,
      repository: proj,
      sender: ann,
    };
    const built = buildHookPayload(envelope('commit_status.created', status))!;
    expect(built).toMatchObject({ event: 'status', repoId: 5, ownerId: 9, ref: null });
    expect(Object.keys(built.payload)).toEqual(['commit', 'context', 'created_at', 'description', 'id', 'repository', 'sender', 'sha', 'state', 'target_url', 'updated_at']);
    expect(built.payload).toEqual(status);
  });

  it("should send a fork to the forked repository's hooks with Gitea's forkee (the source) and repository (the fork)", () => {
    const fork = repo(6, ann, 'proj', { fork: true, parent: proj });
    const built = buildHookPayload(envelope('repo.forked', { forkee: fork, repository: proj, sender: ann }))!;
    expect(built).toMatchObject({ event: 'fork', repoId: 5, ownerId: 9, ref: null });
    expect(built.payload).toEqual({ forkee: proj, repository: fork, sender: ann });
  });

  it("should announce a fork's creation as a repository event only when an organization owns the fork", () => {
    const userFork = repo(6, ann, 'proj', { fork: true, parent: proj });
    expect(buildHookPayload(envelope('repo.created', { repository: userFork, organization: null, sender: ann }))).toBeNull();
    const org = { id: 9, name: 'acme', username: 'acme' } as never;
    const orgFork = repo(7, acme, 'proj2', { fork: true, parent: proj });
    expect(buildHookPayload(envelope('repo.created', { repository: orgFork, organization: org, sender: ann }))).toMatchObject({
      event: 'repository',
      repoId: 7,
      payload: { action: 'created', repository: orgFork },
    });
  });

  it('should send nothing for events without a webhook', () => {
    expect(buildHookPayload(envelope('user.created', { user: ann }))).toBeNull();
  });

  it.each([
    ['issue_assign', 'issues'],
    ['pull_request_sync', 'pull_request'],
    ['pull_request_comment', 'issue_comment'],
    ['pull_request_review_approved', 'pull_request_approved'],
    ['pull_request_review_rejected', 'pull_request_rejected'],
    ['pull_request_review_comment', 'pull_request_comment'],
    ['push', 'push'],
  ])('should send %s under the X-Gitea-Event %s', (fine, coarse) => {
    expect(coarseEvent(fine)).toBe(coarse);
  });
});
