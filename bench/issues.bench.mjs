// Issue 11: a 50-issue page (labels, assignees, milestone) of a repository with 100,000 issues,
// through the gateway, side by side with the raw SQL for the same page on the same database in
// the same run: distributed (PostgreSQL, Redis Streams) and embedded (SQLite). Also counts the
// transport calls one page costs (a constant, whatever the page size).
import Database from 'better-sqlite3';
import pg from 'pg';
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { api, startLayout } from './lib/layout.mjs';
import { table } from './lib/load.mjs';

const ISSUES = Number(process.env.BENCH_ISSUES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const PAGE = 50;
const SERVICES = ['org', 'repo', 'issue', 'admin', 'webhook'];

/** Users, a repository, labels and milestones through the API; the 100,000 issues straight into issue-service's tables. */
async function prepare(layout) {
  const users = [];
  for (const name of ['benchowner', 'benchdev1', 'benchdev2']) {
    users.push(await api(layout, 'POST', '/admin/users', { username: name, email: `${name}@example.com`, password: 'bench-user-pw', must_change_password: false }));
  }
  const auth = { basic: ['benchowner', 'bench-user-pw'] };
  const repo = await api(layout, 'POST', '/user/repos', { name: 'tracker' }, auth);
  return { users: users.map((u) => u.id), repo, auth };
}

/** The rows, as issue-service would have written them: each issue with two labels, an assignee, a milestone. */
function seedStatements(repoId, users, now) {
  const t0 = now - ISSUES * 1000;
  return {
    labels: [1, 2, 3, 4, 5].map((n) => ({ name: `kind/l${n}`, color: `#00aa0${n}` })),
    milestones: ['v1', 'v2'],
    issue: (labelIds, milestoneIds) => ({
      sql: `INSERT INTO issue (repo_id, idx, poster_id, original_author, original_author_id, title, body, ref, milestone_id, is_pull, is_closed, is_locked,
              num_comments, content_version, pin_order, time_estimate, deadline, created_at, updated_at, closed_at)
            SELECT ${repoId}, g, CASE g % 3 WHEN 0 THEN ${users[0]} WHEN 1 THEN ${users[1]} ELSE ${users[2]} END, '', 0,
              'Issue number ' || g, 'The body of issue ' || g, '', CASE WHEN g % 2 = 0 THEN ${milestoneIds[0]} ELSE ${milestoneIds[1]} END,
              FALSE, (g % 5 = 0), FALSE, 0, 0, 0, 0, NULL, ${t0} + g * 1000, ${t0} + g * 1000, CASE WHEN g % 5 = 0 THEN ${now} END`,
      labelSql: `INSERT INTO issue_label (issue_id, label_id) SELECT id, CASE idx % 5 WHEN 0 THEN ${labelIds[0]} WHEN 1 THEN ${labelIds[1]} WHEN 2 THEN ${labelIds[2]} WHEN 3 THEN ${labelIds[3]} ELSE ${labelIds[4]} END FROM issue WHERE repo_id = ${repoId}
                 UNION ALL SELECT id, ${labelIds[4]} FROM issue WHERE repo_id = ${repoId} AND idx % 5 <> 4`,
      assigneeSql: `INSERT INTO issue_assignee (issue_id, assignee_id) SELECT id, CASE idx % 2 WHEN 0 THEN ${users[1]} ELSE ${users[2]} END FROM issue WHERE repo_id = ${repoId}`,
      counterSql: `INSERT INTO issue_counter (repo_id, last_index, num_issues, num_closed_issues, num_pulls, num_closed_pulls, version) VALUES (${repoId}, ${ISSUES}, ${ISSUES}, ${Math.floor(ISSUES / 5)}, 0, 0, 1)`,
    }),
  };
}

async function seedPostgres(dbUrl, repoId, users) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 4, options: '-c search_path=gitforge_issue' });
  const s = seedStatements(repoId, users, Date.now());
  const labelIds = [];
  for (const l of s.labels) {
    labelIds.push((await pool.query(`INSERT INTO label (repo_id, org_id, name, exclusive, color, description, created_at, updated_at) VALUES ($1, 0, $2, FALSE, $3, '', $4, $4) RETURNING id`, [repoId, l.name, l.color, Date.now()])).rows[0].id);
  }
  const milestoneIds = [];
  for (const m of s.milestones) {
    milestoneIds.push((await pool.query(`INSERT INTO milestone (repo_id, name, content, is_closed, created_at, updated_at) VALUES ($1, $2, '', FALSE, $3, $3) RETURNING id`, [repoId, m, Date.now()])).rows[0].id);
  }
  const q = s.issue(labelIds, milestoneIds);
  await pool.query(`${q.sql} FROM generate_series(1, ${ISSUES}) g`);
  await pool.query(q.labelSql);
  await pool.query(q.assigneeSql);
  await pool.query(q.counterSql);
  await pool.query('ANALYZE');
  return pool;
}

function seedSqlite(file, repoId, users) {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const s = seedStatements(repoId, users, Date.now());
  const now = Date.now();
  const labelIds = s.labels.map((l) => db.prepare(`INSERT INTO label (repo_id, org_id, name, exclusive, color, description, created_at, updated_at) VALUES (?, 0, ?, 0, ?, '', ?, ?) RETURNING id`).get(repoId, l.name, l.color, now, now).id);
  const milestoneIds = s.milestones.map((m) => db.prepare(`INSERT INTO milestone (repo_id, name, content, is_closed, created_at, updated_at) VALUES (?, ?, '', 0, ?, ?) RETURNING id`).get(repoId, m, now, now).id);
  const q = s.issue(labelIds, milestoneIds);
  db.exec('BEGIN');
  db.exec(`WITH RECURSIVE series(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM series WHERE g < ${ISSUES}) ${q.sql.replace(/TRUE/g, '1').replace(/FALSE/g, '0')} FROM series`);
  db.exec(q.labelSql);
  db.exec(q.assigneeSql);
  db.exec(q.counterSql);
  db.exec('COMMIT');
  db.exec('ANALYZE');
  return db;
}

/**
 * The same page issue-service serves, as plain SQL: the open issues newest first with their
 * total, then their labels, assignees and milestones (with counted issues) — four queries, as a
 * hand-written handler would run them.
 */
function referencePage(run) {
  return async (offset) => {
    const issues = await run('SELECT * FROM issue WHERE repo_id = $1 AND is_closed = $2 ORDER BY created_at DESC, id DESC LIMIT 50 OFFSET $3', [REPO.id, false, offset]);
    await run('SELECT COUNT(*) AS n FROM issue WHERE repo_id = $1 AND is_closed = $2', [REPO.id, false]);
    const ids = issues.map((i) => i.id);
    const list = ids.join(',');
    await run(`SELECT il.issue_id, l.* FROM issue_label il JOIN label l ON l.id = il.label_id WHERE il.issue_id IN (${list})`, []);
    await run(`SELECT * FROM issue_assignee WHERE issue_id IN (${list})`, []);
    const milestones = [...new Set(issues.map((i) => i.milestone_id))].join(',');
    await run(`SELECT * FROM milestone WHERE id IN (${milestones})`, []);
    await run(`SELECT milestone_id, is_closed, COUNT(*) AS n FROM issue WHERE milestone_id IN (${milestones}) GROUP BY milestone_id, is_closed`, []);
    return issues.length;
  };
}
const REPO = { id: 0 };

async function timeSequential(fn) {
  for (let i = 0; i < 10; i++) await fn(i); // warm-up
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = process.hrtime.bigint();
    await fn(i);
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.floor(ms.length * 0.99)] };
}

/** Pages through the gateway: the first page and one deep in the list (page 1000 of 1600). */
function gatewayPage(layout, auth) {
  const headers = { authorization: `Basic ${Buffer.from(auth.basic.join(':')).toString('base64')}` };
  return async (i) => {
    const page = i % 2 === 0 ? 1 : 1000;
    const res = await fetch(`${layout.apiUrl}/repos/benchowner/tracker/issues?limit=${PAGE}&page=${page}`, { headers });
    const body = await res.json();
    if (res.status !== 200 || body.length !== PAGE || !body[0].labels.length || !body[0].assignees || !body[0].milestone) {
      throw new Error(`unexpected page: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
  };
}

async function transportCalls(layout, auth) {
  const redis = new Redis(layout.env.REDIS_URL);
  const ns = layout.env.GITFORGE_REDIS_NAMESPACE;
  // Served entries are deleted from the streams; `entries-added` counts every XADD ever made.
  const added = async (key) => {
    const info = await redis.call('XINFO', 'STREAM', key).catch(() => []);
    const at = info.indexOf('entries-added');
    return at >= 0 ? Number(info[at + 1]) : 0;
  };
  const lengths = async () => Promise.all(SERVICES.map((s) => added(`${ns}:rpc:${s}`)));
  const fetchPage = gatewayPage(layout, auth);
  await fetchPage(0); // credentials cached from here on
  const before = await lengths();
  const pages = 20;
  for (let i = 0; i < pages; i++) await fetchPage(i);
  const after = await lengths();
  redis.disconnect();
  return Object.fromEntries(SERVICES.map((s, i) => [s, (after[i] - before[i]) / pages]));
}

export default async function () {
  console.log(`GET /repos/{o}/{r}/issues?limit=${PAGE} (pages 1 and 1000, alternating) of a repository with ${ISSUES} issues, each with 2 labels, an assignee and a milestone; ${ROUNDS} sequential requests`);
  const rows = [];
  const distributed = await startLayout('distributed', { env: { GITFORGE_AUTH_CACHE_TTL_MS: '600000' } });
  try {
    const { users, repo, auth } = await prepare(distributed);
    REPO.id = repo.id;
    const pool = await seedPostgres(distributed.env.DATABASE_URL, repo.id, users);
    try {
      const calls = await transportCalls(distributed, auth);
      console.log(`transport calls per page (distributed, requests added to each service's stream): ${JSON.stringify(calls)}, total ${Object.values(calls).reduce((a, b) => a + b, 0)}`);
      const gw = await timeSequential(gatewayPage(distributed, auth));
      const page = referencePage(async (sql, params) => (await pool.query(sql, params)).rows);
      const ref = await timeSequential((i) => page(i % 2 === 0 ? 0 : 999 * PAGE));
      rows.push({ path: 'distributed: gateway → issue-service (PG)', ...fmt(gw, ref) }, { path: 'reference: raw SQL, same page (PG)', ...fmt(ref, ref) });
    } finally {
      await pool.end();
    }
  } finally {
    await distributed.stop();
  }
  const embedded = await startLayout('embedded', { env: { GITFORGE_AUTH_CACHE_TTL_MS: '600000' } });
  try {
    const { users, repo, auth } = await prepare(embedded);
    REPO.id = repo.id;
    const db = seedSqlite(join(embedded.dataDir, 'issue.sqlite'), repo.id, users);
    try {
      const gw = await timeSequential(gatewayPage(embedded, auth));
      const page = referencePage(async (sql, params) => db.prepare(sql.replace(/\$\d/g, '?')).all(...params.map((p) => (typeof p === 'boolean' ? Number(p) : p))));
      const ref = await timeSequential((i) => page(i % 2 === 0 ? 0 : 999 * PAGE));
      rows.push({ path: 'embedded: gateway → issue-service (SQLite)', ...fmt(gw, ref) }, { path: 'reference: raw SQL, same page (SQLite)', ...fmt(ref, ref) });
    } finally {
      db.close();
    }
  } finally {
    await embedded.stop();
  }
  table(rows, ['path', 'p50 ms', 'p99 ms', 'p50 vs reference']);
}

function fmt(r, ref) {
  return { 'p50 ms': r.p50.toFixed(2), 'p99 ms': r.p99.toFixed(2), 'p50 vs reference': `${(r.p50 / ref.p50).toFixed(2)}x` };
}
