import type { Comment, EventEnvelope, EventName, EventPayloads, HookTarget, Issue, PayloadCommit, PullRequest, Repository, User } from '@gitforge/contracts';

/** Builders for the API shapes events carry, with just enough filled in. */

export const ROOT = 'http://forge.test/';

export function user(id: number, login: string, extra: Partial<User> = {}): User {
  return {
    id,
    login,
    login_name: '',
    source_id: 0,
    full_name: `${login} Full`,
    email: `${login}@example.com`,
    avatar_url: `${ROOT}avatars/${login}`,
    html_url: `${ROOT}${login}`,
    language: '',
    is_admin: false,
    last_login: '0001-01-01T00:00:00Z',
    created: '2024-01-01T00:00:00Z',
    restricted: false,
    active: true,
    prohibit_login: false,
    location: '',
    website: '',
    description: '',
    visibility: 'public',
    followers_count: 0,
    following_count: 0,
    starred_repos_count: 0,
    username: login,
    ...extra,
  };
}

export function repo(id: number, owner: User, name: string, extra: Partial<Repository> = {}): Repository {
  return {
    id,
    owner,
    name,
    full_name: `${owner.login}/${name}`,
    html_url: `${ROOT}${owner.login}/${name}`,
    private: false,
    default_branch: 'main',
    ...extra,
  } as Repository;
}

export function issue(number: number, r: Repository, poster: User, extra: Partial<Issue> = {}): Issue {
  return {
    id: 100 + number,
    url: `${ROOT}api/v1/repos/${r.full_name}/issues/${number}`,
    html_url: `${r.html_url}/issues/${number}`,
    number,
    user: poster,
    original_author: '',
    original_author_id: 0,
    title: `Issue ${number}`,
    body: 'It breaks',
    ref: '',
    assets: [],
    labels: [],
    milestone: null,
    assignee: null,
    assignees: null,
    state: 'open',
    is_locked: false,
    comments: 0,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
    closed_at: null,
    due_date: null,
    time_estimate: 0,
    pull_request: null,
    repository: { id: r.id, name: r.name, owner: r.owner.login, full_name: r.full_name },
    pin_order: 0,
    content_version: 0,
    projects: [],
    ...extra,
  };
}

/** A pull request as issue-service's events carry it (Gitea's PullRequest), head `feature` on base `main`. */
export function pull(of: Issue, r: Repository, extra: Partial<PullRequest> = {}): PullRequest {
  const html = `${r.html_url}/pulls/${of.number}`;
  return {
    id: 500 + of.number,
    url: html,
    number: of.number,
    user: of.user,
    title: of.title,
    body: of.body,
    labels: of.labels,
    milestone: of.milestone,
    assignee: of.assignee,
    assignees: of.assignees,
    requested_reviewers: [],
    requested_reviewers_teams: [],
    state: of.state,
    draft: false,
    is_locked: of.is_locked,
    comments: of.comments,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    mergeable: true,
    merged: false,
    merged_at: null,
    merge_commit_sha: null,
    merged_by: null,
    allow_maintainer_edit: false,
    base: { label: 'main', ref: 'main', sha: 'b'.repeat(40), repo_id: r.id, repo: r },
    head: { label: 'feature', ref: 'feature', sha: 'c'.repeat(40), repo_id: r.id, repo: r },
    merge_base: 'b'.repeat(40),
    due_date: of.due_date,
    created_at: of.created_at,
    updated_at: of.updated_at,
    closed_at: of.closed_at,
    pin_order: of.pin_order,
    content_version: 0,
    ...extra,
  };
}

export function comment(id: number, on: Issue, poster: User, body: string): Comment {
  return {
    id,
    html_url: `${on.html_url}#issuecomment-${id}`,
    pull_request_url: on.pull_request ? on.html_url : '',
    issue_url: on.pull_request ? '' : on.html_url,
    user: poster,
    original_author: '',
    original_author_id: 0,
    body,
    assets: [],
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
  };
}

export function commit(id: string, message: string, author = 'Ann'): PayloadCommit {
  return {
    id,
    message,
    url: `${ROOT}ann/proj/commit/${id}`,
    author: { name: author, email: 'ann@example.com', username: 'ann' },
    committer: { name: author, email: 'ann@example.com', username: 'ann' },
    verification: null,
    timestamp: '2024-05-01T10:00:00Z',
    added: [],
    removed: [],
    modified: ['README.md'],
  };
}

export function envelope<N extends EventName>(name: N, payload: EventPayloads[N], repoId: number | null = null): EventEnvelope<N> {
  return { id: `evt-${name}-${Math.random().toString(36).slice(2)}`, name, version: 1, occurredAt: '2024-05-01T10:00:00.000Z', actor: null, repoId, payload };
}

export function target(extra: Partial<HookTarget> = {}): HookTarget {
  return {
    id: 7,
    kind: 'repository',
    type: 'gitea',
    url: 'http://hooks.example.com/in',
    httpMethod: 'POST',
    contentType: 'json',
    secret: '',
    authorizationHeader: '',
    meta: {},
    isActive: true,
    repoId: 1,
    ownerId: 0,
    updatedAtMs: 0,
    ...extra,
  };
}
