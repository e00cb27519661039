import { SecretBox, type Database } from '@gitforge/platform';
import { openServiceTestDatabase, type ServiceTestDatabase } from '@gitforge/platform/testing';
import { AdminServiceEntities, AdminServiceMigrations } from '../src/entities.js';
import { HookSecrets } from '../src/hooks/hook-secrets.js';
import { HooksRepository } from '../src/hooks/hooks.repository.js';

describe.each(['sqlite', 'postgres'] as const)('HookSecrets on %s', (engine) => {
  let opened: ServiceTestDatabase<never> | undefined;
  let db: Database;
  const box = new SecretBox('a-test-key-of-enough-length');

  beforeAll(async () => {
    opened = await openServiceTestDatabase(engine, 'hooksecrets', { service: 'admin', entities: AdminServiceEntities, migrations: AdminServiceMigrations });
    db = opened.db;
  });

  afterAll(async () => {
    await opened?.close();
  });

  /** A hook row as one written before sealing: its secret and header in clear. */
  async function clearRow(secret: string, header: string): Promise<number> {
    const p = (n: number) => db.sql.param(n);
    await db.write(
      `INSERT INTO webhook (kind, repo_id, owner_id, name, type, url, http_method, content_type, secret, events, branch_filter, is_active, meta, authorization_header, created_at, updated_at)
       VALUES ('repository', 1, 0, '', 'gitea', 'http://example.com/', 'POST', 'json', ${p(1)}, '{}', '', ${p(2)}, '{}', ${p(3)}, 0, 0)`,
      [secret, db.sql.value(true), header],
    );
    const rows = (await db.manager.query('SELECT max(id) AS id FROM webhook')) as Array<{ id: number }>;
    return Number(rows[0]!.id);
  }

  const stored = async (id: number) =>
    ((await db.manager.query(`SELECT secret, authorization_header, secrets_sealed FROM webhook WHERE id = ${db.sql.param(1)}`, [id])) as Array<{
      secret: string;
      authorization_header: string;
      secrets_sealed: boolean | number;
    }>)[0]!;

  it('should seal a value but the empty one, and open what it sealed', () => {
    const secrets = new HookSecrets(box, new HooksRepository(db));
    const sealed = secrets.seal('shh');
    expect(sealed).not.toContain('shh');
    expect(secrets.seal('')).toBe('');
    expect(secrets.open({ secret: sealed, authorizationHeader: '', secretsSealed: true })).toEqual({ secret: 'shh', authorizationHeader: '' });
    // A copy (a default hook copied into a repository) is sealed whatever its source's state.
    const copied = secrets.sealedCopy({ secret: 'old', authorizationHeader: '', secretsSealed: false });
    expect(copied.secretsSealed).toBe(true);
    expect(secrets.open(copied)).toEqual({ secret: 'old', authorizationHeader: '' });
    expect(secrets.sealedCopy({ secret: sealed, authorizationHeader: '', secretsSealed: true }).secret).toBe(sealed);
    // A row still in clear opens as it is.
    expect(secrets.open({ secret: 'old', authorizationHeader: 'Bearer x', secretsSealed: false })).toEqual({ secret: 'old', authorizationHeader: 'Bearer x' });
  });

  it('should seal the rows stored in clear at start, once, keeping what they hold', async () => {
    const id = await clearRow('legacy-secret', 'token legacy');
    const empty = await clearRow('', '');
    const secrets = new HookSecrets(box, new HooksRepository(db));
    await secrets.onApplicationBootstrap();
    const row = await stored(id);
    expect(Boolean(row.secrets_sealed)).toBe(true);
    expect(`${row.secret} ${row.authorization_header}`).not.toMatch(/legacy/);
    expect(secrets.open({ secret: row.secret, authorizationHeader: row.authorization_header, secretsSealed: true })).toEqual({ secret: 'legacy-secret', authorizationHeader: 'token legacy' });
    expect(await stored(empty)).toMatchObject({ secret: '', authorization_header: '' });
    // A second pass (another replica, a restart) finds nothing left to seal and leaves the values alone.
    await secrets.onApplicationBootstrap();
    expect(await stored(id)).toEqual(row);
  });
});
