// Issue 2: GET /api/v1/repos/{owner}/{repo} with token auth, through the distributed layout
// (gateway → Redis Streams → repo-service → org-service → PostgreSQL), the embedded layout
// (one process, SQLite), and a bare Fastify handler running the same repository query on the
// same PostgreSQL database (the reference).
import Fastify from 'fastify';
import pg from 'pg';
import { api, freePort, startLayout } from './lib/layout.mjs';
import { load, table } from './lib/load.mjs';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function prepare(layout) {
  await api(layout, 'POST', '/admin/users', { username: 'benchuser', email: 'bu@example.com', password: 'bench-user-pw', must_change_password: false });
  const token = (await api(layout, 'POST', '/users/benchuser/tokens', { name: 'bench', scopes: ['read:repository'] }, { basic: ['benchuser', 'bench-user-pw'] })).sha1;
  await api(layout, 'POST', '/user/repos', { name: 'target', auto_init: true, private: true }, { basic: ['benchuser', 'bench-user-pw'] });
  return token;
}

async function measureLayout(kind, between) {
  const layout = await startLayout(kind);
  try {
    const token = await prepare(layout);
    const options = { url: `${layout.apiUrl}/repos/benchuser/target`, headers: { authorization: `token ${token}` }, concurrency: CONCURRENCY, seconds: SECONDS };
    const before = between ? await between(layout.env.DATABASE_URL) : undefined;
    const result = await load(options);
    const after = between ? await between(layout.env.DATABASE_URL) : undefined;
    return { layout, result, references: [before, after].filter(Boolean) };
  } catch (err) {
    await layout.stop();
    throw err;
  }
}

async function measureReference(dbUrl) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 10 });
  const app = Fastify({ logger: false });
  // The same lookup repo-service does for this route: the repository by owner and lower-case name.
  const { rows } = await pool.query(`SELECT owner_id FROM gitforge_repo.repository WHERE lower_name = 'target'`);
  const ownerId = rows[0].owner_id;
  app.get('/repos/:owner/:repo', async (req) => {
    const r = await pool.query('SELECT * FROM gitforge_repo.repository WHERE owner_id = $1 AND lower_name = $2', [ownerId, req.params.repo.toLowerCase()]);
    return r.rows[0];
  });
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  try {
    return await load({ url: `http://127.0.0.1:${port}/repos/benchuser/target`, concurrency: CONCURRENCY, seconds: SECONDS });
  } finally {
    await app.close();
    await pool.end();
  }
}

export default async function () {
  console.log(`GET /api/v1/repos/{owner}/{repo}, token auth, ${CONCURRENCY} concurrent connections, ${SECONDS} s each`);
  // The reference runs just before and just after the distributed layout's load (on the
  // database that layout made, its processes idle), and the layouts are compared with the mean
  // of both: on a shared machine one reference run alone has varied by a third.
  const distributed = await measureLayout('distributed', measureReference);
  await distributed.layout.stop();
  const embedded = await measureLayout('embedded');
  await embedded.layout.stop();
  const [before, after] = distributed.references;
  const reference = { rps: (before.rps + after.rps) / 2, p50: (before.p50 + after.p50) / 2, p99: (before.p99 + after.p99) / 2, errors: before.errors + after.errors };
  const row = (name, r) => ({
    path: name,
    'req/s': r.rps.toFixed(0),
    'p50 ms': r.p50.toFixed(2),
    'p99 ms': r.p99.toFixed(2),
    errors: r.errors,
    'vs reference': `${(r.rps / reference.rps).toFixed(2)}x`,
  });
  table(
    [
      row('distributed (gateway+Redis Streams+PG)', distributed.result),
      row('embedded (one process, SQLite)', embedded.result),
      row('reference: bare Fastify + same SQL (PG), mean', reference),
      row('  reference run before the distributed load', before),
      row('  reference run after it', after),
    ],
    ['path', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs reference'],
  );
}
