/**
 * Looks behind the API for content tests: the bare repositories in the layout's data directory
 * (read and written with the real `git` CLI, as a clone would see them) and repo-service's own
 * tables (outbox events, repository flags that the API cannot set).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { EventEnvelope } from '@gitforge/contracts';
import type { Layout } from './layout.js';

const gitHome = mkdtempSync(join(tmpdir(), 'gf-e2e-git-home-'));

export function repoDir(layout: Layout, repoId: number): string {
  return join(layout.dataDir, 'repositories', `${repoId}.git`);
}

/** Runs git on a repository on disk with a clean environment; resolves stdout. */
export function gitOnDisk(layout: Layout, repoId: number, args: string[], input?: string | Buffer, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      {
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: gitHome,
          GIT_DIR: repoDir(layout, repoId),
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_TERMINAL_PROMPT: '0',
          GIT_AUTHOR_NAME: 'Disk Writer',
          GIT_AUTHOR_EMAIL: 'disk@example.com',
          GIT_COMMITTER_NAME: 'Disk Writer',
          GIT_COMMITTER_EMAIL: 'disk@example.com',
          ...env,
        },
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => (err ? reject(new Error(`git ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout)),
    );
    // Commands that do not read stdin may exit before it is written.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(input ?? '');
  });
}

/**
 * Writes a commit on disk with plumbing (no API involved) whose root tree holds `files` (new
 * content, or an existing object by sha); returns the commit id after moving `branch` to it.
 */
export async function commitOnDisk(
  layout: Layout,
  repoId: number,
  branch: string,
  files: Array<{ path: string; content?: string; mode?: string; sha?: string }>,
  message: string,
  parent?: string,
): Promise<string> {
  const lines: string[] = [];
  for (const f of files) {
    const sha = f.sha ?? (await gitOnDisk(layout, repoId, ['hash-object', '-w', '--stdin'], f.content ?? '')).trim();
    const mode = f.mode ?? '100644';
    lines.push(`${mode} ${mode === '160000' ? 'commit' : mode === '040000' ? 'tree' : 'blob'} ${sha}\t${f.path}`);
  }
  const tree = (await gitOnDisk(layout, repoId, ['mktree'], `${lines.join('\n')}\n`)).trim();
  const args = ['commit-tree', tree, '-m', message];
  if (parent) args.push('-p', parent);
  const commit = (await gitOnDisk(layout, repoId, args)).trim();
  await gitOnDisk(layout, repoId, ['update-ref', `refs/heads/${branch}`, commit]);
  return commit;
}

function query<T>(layout: Layout, sql: { sqlite: string; pg: string }, params: unknown[] = []): Promise<T[]> {
  return serviceQuery<T>(layout, 'repo', sql, params);
}

/** SQL on one service's own database (`<service>.sqlite` embedded, schema `gitforge_<service>` on PostgreSQL). */
export async function serviceQuery<T>(layout: Layout, service: 'repo' | 'admin' | 'org' | 'webhook', sql: { sqlite: string; pg: string }, params: unknown[] = []): Promise<T[]> {
  if (layout.kind === 'embedded') {
    const db = new Database(join(layout.dataDir, `${service}.sqlite`));
    try {
      const stmt = db.prepare(sql.sqlite);
      return (stmt.reader ? stmt.all(...params) : (stmt.run(...params), [])) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: layout.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql.pg, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The events repo-service wrote to its outbox for one repository, oldest first. */
export async function repoEvents(layout: Layout, repoId: number): Promise<EventEnvelope[]> {
  const rows = await query<{ envelope: string }>(layout, {
    sqlite: 'SELECT envelope FROM outbox_event ORDER BY seq',
    pg: 'SELECT envelope FROM gitforge_repo.outbox_event ORDER BY seq',
  });
  return rows.map((r) => JSON.parse(r.envelope) as EventEnvelope).filter((e) => e.repoId === repoId);
}

/** A repository's branch protection rule ids by rule name (Gitea's API does not show them; its web UI orders rules by id). */
export async function branchProtectionIds(layout: Layout, repoId: number): Promise<Map<string, number>> {
  const rows = await query<{ id: number; rule_name: string }>(
    layout,
    {
      sqlite: 'SELECT id, rule_name FROM protected_branch WHERE repo_id = ?',
      pg: 'SELECT id, rule_name FROM gitforge_repo.protected_branch WHERE repo_id = $1',
    },
    [repoId],
  );
  return new Map(rows.map((r) => [r.rule_name, Number(r.id)]));
}

/** Marks a repository as a mirror (no API creates one in this build). */
export async function markMirror(layout: Layout, repoId: number): Promise<void> {
  await query(layout, {
    sqlite: 'UPDATE repository SET is_mirror = 1 WHERE id = ?',
    pg: 'UPDATE gitforge_repo.repository SET is_mirror = true WHERE id = $1',
  }, [repoId]);
}

export const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');
