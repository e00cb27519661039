// Issue 20: notification fan-out.
// 1. The projector's batch writer (multi-row upserts, one thread per user and subject) writing the
//    threads of one event for 10,000 recipients, next to plain multi-row INSERTs of the same rows
//    in the same run and database: threads/s for new threads, for threads that already exist
//    (the upsert's update path), and the plain reference. PostgreSQL and SQLite.
// 2. End to end in the distributed layout: a comment on an issue of a repository with 10,000
//    watchers (seeded straight into org-service's and repo-service's tables), its API latency next
//    to a comment on a repository nobody watches, and the time until the 10,000 threads are written.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Database, createServiceDataSource, openServiceDatabase } from '../packages/platform/dist/index.js';
import { WebhookWorkerEntities, WebhookWorkerMigrations } from '../apps/webhook-worker/dist/entities.js';
import { NotificationsRepository } from '../apps/webhook-worker/dist/notifications/notifications.repository.js';
import { ADMIN, api, createDatabase, startLayout } from './lib/layout.mjs';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

const subject = (key) => ({
  repoId: 1,
  source: 1,
  subjectKey: key,
  title: 'A subject with a realistic title',
  state: 'open',
  subjectUrl: 'http://forge.test/api/v1/repos/o/r/issues/1',
  subjectHtmlUrl: 'http://forge.test/o/r/issues/1',
  latestCommentUrl: 'http://forge.test/api/v1/repos/o/r/issues/comments/1',
  latestCommentHtmlUrl: 'http://forge.test/o/r/issues/1#issuecomment-1',
  at: Date.now(),
});

async function writer(label, config) {
  const ds = createServiceDataSource(config, { service: 'webhook', entities: WebhookWorkerEntities, migrations: WebhookWorkerMigrations });
  await openServiceDatabase(ds, 'webhook');
  const db = new Database(ds);
  const repo = new NotificationsRepository(db);
  const users = Array.from({ length: RECIPIENTS }, (_, i) => i + 1);
  const rate = (ms) => Math.round(RECIPIENTS / (ms / 1000));
  const timed = async (fn) => {
    const started = now();
    await db.transaction(fn);
    return now() - started;
  };
  const inserts = [];
  const upserts = [];
  const updates = [];
  for (let round = 0; round < ROUNDS; round++) {
    inserts.push(await timed((m) => repo.insertPlain(m, subject(`plain:${round}`), users, new Date())));
    upserts.push(await timed((m) => repo.writeThreads(m, subject(`batch:${round}`), users, new Date())));
    updates.push(await timed((m) => repo.writeThreads(m, subject(`batch:${round}`), users, new Date())));
  }
  await ds.destroy();
  const plain = rate(median(inserts));
  console.log(`${label}: ${RECIPIENTS} threads per event, median of ${ROUNDS}`);
  console.log(`  plain INSERTs (reference)        ${plain} rows/s (${median(inserts).toFixed(0)} ms)`);
  console.log(`  projector writer, new threads    ${rate(median(upserts))} threads/s (${median(upserts).toFixed(0)} ms), ${(rate(median(upserts)) / plain).toFixed(2)}x the reference`);
  console.log(`  projector writer, existing ones  ${rate(median(updates))} threads/s (${median(updates).toFixed(0)} ms), ${(rate(median(updates)) / plain).toFixed(2)}x the reference`);
}

/** Copies the template user row `count` times under new names (the directory sees real accounts). */
async function seedUsers(client, templateId, count, prefix) {
  const cols = (
    await client.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = 'gitforge_org' AND table_name = 'users' AND column_name <> 'id' ORDER BY ordinal_position`)
  ).rows.map((r) => r.column_name);
  const named = { name: `'${prefix}' || g`, lower_name: `'${prefix}' || g`, email: `'${prefix}' || g || '@example.com'` };
  const select = cols.map((c) => (named[c] ? named[c] : `u.${c}`)).join(', ');
  await client.query(`INSERT INTO gitforge_org.users (${cols.join(', ')}) SELECT ${select} FROM gitforge_org.users u, generate_series(1, ${count}) g WHERE u.id = $1`, [templateId]);
  const ids = await client.query(`SELECT id FROM gitforge_org.users WHERE lower_name LIKE $1`, [`${prefix}%`]);
  return ids.rows.map((r) => Number(r.id));
}

async function fanOut() {
  const layout = await startLayout('distributed');
  const client = new pg.Client({ connectionString: layout.env.DATABASE_URL });
  await client.connect();
  try {
    const template = await api(layout, 'POST', '/admin/users', { username: 'template', email: 'template@example.com', password: 'bench-user-pw', must_change_password: false });
    const watched = await api(layout, 'POST', '/user/repos', { name: 'popular' });
    const quiet = await api(layout, 'POST', '/user/repos', { name: 'quiet' });
    const ids = await seedUsers(client, template.id, RECIPIENTS, 'watcher');
    const at = Date.now();
    for (let i = 0; i < ids.length; i += 1000) {
      const slice = ids.slice(i, i + 1000);
      await client.query(`INSERT INTO gitforge_repo.watch (user_id, repo_id, created_at) SELECT unnest($1::int[]), $2, $3`, [slice, watched.id, at]);
    }
    await client.query(`UPDATE gitforge_repo.repository SET num_watches = (SELECT COUNT(*) FROM gitforge_repo.watch w WHERE w.repo_id = $1) WHERE id = $1`, [watched.id]);
    const issueOf = async (repo) => api(layout, 'POST', `/repos/${ADMIN.username}/${repo.name}/issues`, { title: 'fan-out' });
    const comment = async (repo, issue) => {
      const started = now();
      await api(layout, 'POST', `/repos/${ADMIN.username}/${repo.name}/issues/${issue.number}/comments`, { body: 'news for everyone' });
      return now() - started;
    };
    const threadsOf = async (issue) => Number((await client.query(`SELECT COUNT(*) AS n FROM gitforge_webhook.notification WHERE subject_key = $1`, [`issue:${issue.id}`])).rows[0].n);
    const quietLatencies = [];
    const popularLatencies = [];
    const fanOutTimes = [];
    for (let round = 0; round < ROUNDS; round++) {
      const q = await issueOf(quiet);
      quietLatencies.push(await comment(quiet, q));
      const p = await issueOf(watched);
      // The issue's own fan-out first, so the comment's is measured on its own.
      while ((await threadsOf(p)) < RECIPIENTS) await new Promise((r) => setTimeout(r, 50));
      await client.query(`UPDATE gitforge_webhook.notification SET status = 2 WHERE subject_key = $1`, [`issue:${p.id}`]);
      const started = now();
      popularLatencies.push(await comment(watched, p));
      for (;;) {
        const unread = Number((await client.query(`SELECT COUNT(*) AS n FROM gitforge_webhook.notification WHERE subject_key = $1 AND status = 1`, [`issue:${p.id}`])).rows[0].n);
        if (unread >= RECIPIENTS) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      fanOutTimes.push(now() - started);
    }
    console.log(`distributed layout, ${RECIPIENTS} watchers, median of ${ROUNDS}`);
    console.log(`  comment API latency, nobody watching    ${median(quietLatencies).toFixed(1)} ms`);
    console.log(`  comment API latency, ${RECIPIENTS} watchers  ${median(popularLatencies).toFixed(1)} ms (the fan-out runs after the answer)`);
    console.log(`  comment to ${RECIPIENTS} threads unread      ${median(fanOutTimes).toFixed(0)} ms (${Math.round(RECIPIENTS / (median(fanOutTimes) / 1000))} threads/s end to end)`);
  } finally {
    await client.end();
    await layout.stop();
  }
}

export default async function () {
  const pgDb = await createDatabase('notifications');
  try {
    await writer('PostgreSQL', { DATABASE_URL: pgDb.url, GITFORGE_DB_POOL_SIZE: 4 });
  } finally {
    await pgDb.drop();
  }
  const dir = mkdtempSync(join(tmpdir(), 'gf-bench-notifications-'));
  try {
    await writer('SQLite', { GITFORGE_DATA_DIR: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await fanOut();
}
