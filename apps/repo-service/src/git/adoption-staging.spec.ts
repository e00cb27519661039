import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropRepository } from '../../test/support/dropped-repo.js';
import { RepoServiceConfig } from '../repo.config.js';
import { GitService } from './git.service.js';
import { ADOPTION_MARKER } from './unadopted-dirs.js';

/** GitService's side of an adoption: into the staging area with a marker, and back out of it instead of being deleted. */
describe('GitService adoption staging', () => {
  let dataDir: string;
  let git: GitService;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gf-adopt-staging-'));
    git = new GitService(Object.assign(new RepoServiceConfig(), { GITFORGE_DATA_DIR: dataDir }));
  });

  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const config = (dir: string, key: string): string =>
    execFileSync('git', ['config', '--get', key], { env: { PATH: process.env.PATH, GIT_DIR: dir, GIT_CONFIG_NOSYSTEM: '1', HOME: dataDir } }).toString().trim();

  it('should stage a dropped repository with its marker and the settings every repository gets, then drop the marker in place', async () => {
    const drop = dropRepository(git.root, 'alice/proj.git', { branches: ['master'] });
    expect(await git.isUnadopted('alice', 'proj')).toBe(true);
    const staged = await git.adoptStaged(7, 'Alice', 'Proj');
    expect(staged).toBe(git.stagedPath(7));
    expect(existsSync(drop)).toBe(false);
    expect(readFileSync(join(staged!, ADOPTION_MARKER), 'utf8').trim()).toBe('alice/proj.git');
    expect(config(staged!, 'uploadpack.allowFilter')).toBe('true');
    expect(config(staged!, 'gc.auto')).toBe('0');
    expect(await git.objectFormat(7, staged!)).toBe('sha1');
    await git.promote(7);
    expect(existsSync(join(git.repoPath(7), ADOPTION_MARKER))).toBe(false);
    expect(await git.branchNames(7)).toEqual(['master']);
  });

  it('should move a staged adoption back where it was dropped instead of deleting it', async () => {
    dropRepository(git.root, 'alice/proj.git', { branches: ['main'] });
    await git.adoptStaged(7, 'alice', 'proj');
    rmSync(join(git.root, 'alice'), { recursive: true });
    await git.discardStaged(7);
    expect(existsSync(git.stagedPath(7))).toBe(false);
    expect(existsSync(join(git.root, 'alice/proj.git', ADOPTION_MARKER))).toBe(false);
    expect(await git.unadoptedNames('alice')).toEqual(['proj']);
    // Still a repository, with the settings it was given.
    expect(config(join(git.root, 'alice/proj.git'), 'uploadpack.allowFilter')).toBe('true');
  });

  it('should keep a staged adoption staged when its drop location is taken again', async () => {
    dropRepository(git.root, 'alice/proj.git', { branches: ['main'] });
    await git.adoptStaged(7, 'alice', 'proj');
    dropRepository(git.root, 'alice/proj.git', { branches: ['other'] });
    await expect(git.discardStaged(7)).rejects.toThrow();
    expect(existsSync(join(git.stagedPath(7), ADOPTION_MARKER))).toBe(true);
    // A new repository given the same id leaves it alone as well.
    await expect(git.initStaged(7, 'main')).rejects.toThrow();
    expect(existsSync(join(git.stagedPath(7), ADOPTION_MARKER))).toBe(true);
  });

  it('should put a leftover staged adoption back when its id is created again, then create', async () => {
    dropRepository(git.root, 'alice/proj.git', { branches: ['main'] });
    await git.adoptStaged(7, 'alice', 'proj');
    await git.initStaged(7, 'main');
    expect(existsSync(join(git.stagedPath(7), ADOPTION_MARKER))).toBe(false);
    expect(await git.isUnadopted('alice', 'proj')).toBe(true);
  });

  it('should delete a staged create that has no marker', async () => {
    await git.initStaged(8, 'main');
    await git.discardStaged(8);
    expect(existsSync(git.stagedPath(8))).toBe(false);
  });

  it('should refuse what is no git repository where it lies (422), and what is not there', async () => {
    mkdirSync(join(git.root, 'alice/junk.git'), { recursive: true });
    writeFileSync(join(git.root, 'alice/junk.git/notes.txt'), 'not a repository');
    await expect(git.adoptStaged(9, 'alice', 'junk')).rejects.toMatchObject({ code: 'unprocessable' });
    expect(readFileSync(join(git.root, 'alice/junk.git/notes.txt'), 'utf8')).toBe('not a repository');
    expect(existsSync(join(git.root, 'alice/junk.git', ADOPTION_MARKER))).toBe(false);
    expect(existsSync(git.stagedPath(9))).toBe(false);
    expect(await git.adoptStaged(9, 'alice', 'missing')).toBeNull();
    expect(await git.adoptStaged(9, '..', 'x')).toBeNull();
  });

  it('should remove a dropped directory, and nothing that is not one', async () => {
    dropRepository(git.root, 'alice/proj.git');
    expect(await git.removeUnadopted('alice', 'proj')).toBe(true);
    expect(existsSync(join(git.root, 'alice/proj.git'))).toBe(false);
    expect(await git.removeUnadopted('alice', 'proj')).toBe(false);
    expect(await git.removeUnadopted('..', 'repositories')).toBe(false);
  });
});
