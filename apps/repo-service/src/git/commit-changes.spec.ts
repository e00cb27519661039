import { TestRepo } from '../../test/support/test-repo.js';
import { CatFilePool } from './cat-file.pool.js';
import { commitInfoOf } from './commit-changes.js';
import { GitObjects } from './git-objects.js';

/** Commits as others push them (hand-written objects), described in process and by `git log`. */
describe(commitInfoOf.name, () => {
  let repo: TestRepo;
  let pool: CatFilePool;
  let objects: GitObjects;
  let base: string;
  let changed: string;

  const hash = async (type: string, body: Buffer | string): Promise<string> =>
    (await repo.git.run(1, ['hash-object', '-w', '-t', type, '--stdin'], { input: Buffer.isBuffer(body) ? body : Buffer.from(body) })).stdout.toString().trim();
  const tree = async (listing: string): Promise<string> => (await repo.git.run(1, ['mktree'], { input: Buffer.from(listing) })).stdout.toString().trim();
  const same = async (raws: Array<Buffer | string>): Promise<void> => {
    const fast = [];
    const slow = [];
    for (const raw of raws) {
      const sha = await hash('commit', raw);
      // As a push describes it: in process, or by git where the commit is left to git (null).
      fast.push((await commitInfoOf(objects, 1, sha)) ?? (await repo.git.commitInfo(1, sha)));
      slow.push(await repo.git.commitInfo(1, sha));
    }
    expect(fast).toEqual(slow);
  };

  beforeAll(async () => {
    repo = await new TestRepo().init();
    repo.sh('commit', '-q', '--allow-empty', '-m', 'root');
    repo.push();
    pool = new CatFilePool(repo.git);
    objects = new GitObjects(pool);
    const blob = await hash('blob', 'x');
    const root = repo.bare('rev-parse', 'refs/heads/main').trim();
    base = await hash('commit', `tree ${await tree(`100644 blob ${blob}\ta\n`)}\nparent ${root}\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n\nbase\n`);
    changed = await tree(`120000 blob ${blob}\ta\n`);
  });

  afterAll(() => {
    pool.onModuleDestroy();
    repo.remove();
  });

  it('should describe headers, messages and identities as git log does', async () => {
    const head = `tree ${changed}\nparent ${base}\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n`;
    await same([
      `${head}\nno newline`,
      `${head}gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nsigned\n`,
      `${head}\n\n\nleading blank\n`,
      `tree ${changed}\nparent ${base}\nauthor A B <a@x> 1700000000 +0530\ncommitter  <> 1700000000 -1200\n\nodd idents\n`,
    ]);
  });

  it('should write a -0000 offset as git does, +00:00', async () => {
    await same([`tree ${changed}\nparent ${base}\nauthor A <a@x> 1700000000 -0000\ncommitter A <a@x> 1700000000 -0000\n\nneg zero\n`]);
  });

  it('should leave a commit in another encoding to git, which re-encodes its message to UTF-8', async () => {
    const head = `tree ${changed}\nparent ${base}\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\nencoding ISO-8859-1\n\n`;
    await same([Buffer.concat([Buffer.from(`${head}caf`), Buffer.from([0xe9]), Buffer.from('\n')])]);
  });

  it('should leave dates past year 9999 to git, never throwing (a push\'s events would be lost)', async () => {
    await same([
      `tree ${changed}\nparent ${base}\nauthor A <a@x> 1700000000 +0000\ncommitter C <c@x> 99999999999999 +0100\n\nfar future\n`,
      `tree ${changed}\nparent ${base}\nauthor A <a@x> 253402300799 +0100\ncommitter C <c@x> 1700000000 +0100\n\nyear 10000 there\n`,
    ]);
  });
});
