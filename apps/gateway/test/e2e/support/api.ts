/** A small HTTP client for the API, with Gitea's ways of authenticating. */
import { ADMIN, type Layout } from './layout.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export type Auth = { basic: [string, string] } | { token: string } | null;

export class Api {
  constructor(
    readonly layout: Layout,
    private readonly auth: Auth = null,
  ) {}

  as(auth: Auth): Api {
    return new Api(this.layout, auth);
  }

  asUser(username: string, password: string): Api {
    return this.as({ basic: [username, password] });
  }

  get admin(): Api {
    return this.asUser(ADMIN.username, ADMIN.password);
  }

  get anonymous(): Api {
    return this.as(null);
  }

  async request<T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.auth && 'basic' in this.auth) h.authorization = `Basic ${Buffer.from(this.auth.basic.join(':')).toString('base64')}`;
    if (this.auth && 'token' in this.auth) h.authorization = `token ${this.auth.token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.layout.apiUrl}${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // plain text (Gitea's 404 for unknown routes)
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body ?? {});
  }
  patch<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PATCH', path, body ?? {});
  }
  put<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('PUT', path, body);
  }
  delete<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('DELETE', path, body);
  }
}

let counter = 0;
/** A unique, valid name for users, orgs and repositories. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
}

export interface TestUser {
  username: string;
  password: string;
  email: string;
  id: number;
  api: Api;
}

/** Creates a user through the admin API (must_change_password off, as API-driven users need). */
export async function createUser(api: Api, prefix = 'user', extra: Record<string, unknown> = {}): Promise<TestUser> {
  const username = uniqueName(prefix);
  const password = `${username}-pw-1`;
  const email = `${username}@example.com`;
  const res = await api.admin.post<{ id: number }>('/admin/users', {
    username,
    password,
    email,
    must_change_password: false,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`creating ${username}: ${res.status} ${res.text}`);
  return { username, password, email, id: res.body.id, api: api.asUser(username, password) };
}

/** Gitea's API error body. */
export const giteaError = (message?: string | RegExp) => ({
  message: message === undefined ? expect.any(String) : typeof message === 'string' ? message : expect.stringMatching(message),
  url: expect.stringMatching(/api\/swagger$/),
});
