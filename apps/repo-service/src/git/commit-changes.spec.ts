import { TestRepo } from '../../test/support/test-repo.js';
import { CatFilePool } from './cat-file.pool.js';
import { commitInfoOf, commitsOnTopOf } from './commit-changes.js';
import { GitObjects } from './git-objects.js';

/** Commits as others push them (hand-written objects), described in process and by `git log`. */
describe('commits described in process', () => {
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

  it('should describe a merge by its first parent, as git log --diff-merges=first-parent does', async () => {
    const blob = await hash('blob', 'y');
    const side = await hash('commit', `tree ${await tree(`100644 blob ${blob}\tb\n`)}\nparent ${base}\nauthor A <a@x> 1700000100 +0000\ncommitter A <a@x> 1700000100 +0000\n\nside\n`);
    const both = await tree(`100644 blob ${blob}\ta\n100644 blob ${blob}\tb\n`);
    await same([`tree ${both}\nparent ${base}\nparent ${side}\nauthor M <m@x> 1700000200 +0000\ncommitter M <m@x> 1700000200 +0000\n\nmerge\n`]);
  });

  describe(commitsOnTopOf.name, () => {
    const at = (when: number, parents: string[], message: string): Promise<string> =>
      hash('commit', `tree ${changed}\n${parents.map((p) => `parent ${p}\n`).join('')}author A <a@x> ${when} +0000\ncommitter A <a@x> ${when} +0000\n\n${message}\n`);
    /** The commits `tip ^old` as git's walk lists them, and as the in-process walk does. */
    const listed = async (tip: string, old: string, max = 64): Promise<{ git: string[]; ours: string[] | null }> => ({
      git: repo.bare('rev-list', tip, `^${old}`).trim().split('\n').filter(Boolean),
      ours: (await commitsOnTopOf(objects, 1, tip, old, max))?.map((c) => c.sha) ?? null,
    });
    const sameAsGit = async (tip: string, old: string): Promise<void> => {
      const { git, ours } = await listed(tip, old);
      expect(ours).toEqual(git);
    };

    it('should list commits on top of the old head, and a pull merged into it, in git\'s order', async () => {
      const a = await at(1700001000, [base], 'a');
      const b = await at(1700001060, [a], 'b');
      await sameAsGit(b, base);
      const head = await at(1700001000, [base], 'head');
      await sameAsGit(await at(1700001100, [base, head], 'merge'), base);
      await sameAsGit(base, base);
    });

    it('should order commits of one date as git queues them, and later dates first', async () => {
      const left = await at(1700002000, [base], 'left');
      const right = await at(1700002000, [base], 'right');
      await sameAsGit(await at(1700002000, [left, right], 'tie'), base);
      await sameAsGit(await at(1700002000, [right, left], 'tie reversed'), base);
      const later = await at(1700002500, [base], 'later');
      const m1 = await at(1700002100, [left, later], 'm1');
      // A criss-cross: both merges reach `later` and `left`, and an older date above a newer one.
      const m2 = await at(1700001900, [later, left], 'm2');
      await sameAsGit(await at(1700003000, [m1, m2], 'crossed'), base);
    });

    it('should leave to git what it cannot tell in process', async () => {
      const older = (await objects.commit(1, base))!.parents[0]!;
      // A pull whose head branched before the old head: the walk would enter the old head's history.
      const behind = await at(1700004000, [older], 'behind');
      expect((await listed(await at(1700004100, [base, behind], 'merge behind'), base)).ours).toBeNull();
      // A rewind, an unrelated root, and more commits than the walk may read.
      expect((await listed(older, base)).ours).toBeNull();
      const root = await hash('commit', `tree ${changed}\nauthor A <a@x> 1700004200 +0000\ncommitter A <a@x> 1700004200 +0000\n\nroot\n`);
      expect((await listed(await at(1700004300, [base, root], 'unrelated'), base)).ours).toBeNull();
      let tip = base;
      for (let i = 0; i < 5; i++) tip = await at(1700005000 + i, [tip], `c${i}`);
      expect((await listed(tip, base, 4)).ours).toBeNull();
      await sameAsGit(tip, base);
      // A committer line that does not read as a signature: git finds its own date in it.
      const odd = await hash('commit', `tree ${changed}\nparent ${base}\nauthor A <a@x> 1700006000 +0000\ncommitter C <c@x> 1700006000 +0000 trailing\n\nodd\n`);
      expect((await listed(await at(1700006100, [base, odd], 'merge odd'), base)).ours).toBeNull();
    });
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
