import type { EventEnvelope, EventName, EventPayloads, HookTarget, PayloadCommit, Repository, User } from '@gitforge/contracts';

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
