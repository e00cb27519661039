import { createHash } from 'node:crypto';
import { GitSpawner } from './git-spawner.js';

/** Runs on the real helper process (built by `npm test`'s build step) and the real git. */
describe('GitSpawner', () => {
  const spawner = new GitSpawner();
  const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' };

  afterAll(() => spawner.close());

  it('should run git with its arguments, environment and input, and answer what it wrote', async () => {
    const input = Buffer.concat([Buffer.from('bytes \u00e9 '), Buffer.from([0, 255, 10])]);
    const run = await spawner.run('git', ['hash-object', '--stdin'], env, input);
    const expected = createHash('sha1')
      .update(Buffer.concat([Buffer.from(`blob ${input.length}\0`), input]))
      .digest('hex');
    expect(run).toEqual({ code: 0, signal: null, stdout: Buffer.from(`${expected}\n`), stderr: '' });
    expect(Buffer.isBuffer(run.stdout)).toBe(true);
  });

  it('should answer a failed run with its exit code and stderr, and many runs at once each with its own', async () => {
    const failed = await spawner.run('git', ['--git-dir=/nonexistent/repo.git', 'rev-parse', 'HEAD'], env);
    expect(failed.code).toBe(128);
    expect(failed.stderr).toContain('not a git repository');
    const words = Array.from({ length: 20 }, (_, i) => `word ${i}`);
    const runs = await Promise.all(words.map((w) => spawner.run('git', ['hash-object', '--stdin'], env, w)));
    expect(runs.map((r) => r.stdout.toString().trim())).toEqual(words.map((w) => createHash('sha1').update(`blob ${w.length}\0${w}`).digest('hex')));
  });

  it('should fail a run whose program cannot start', async () => {
    await expect(spawner.run('/nonexistent/git', ['version'], env)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('should fail the runs pending when its helper goes, and start another for the next run', async () => {
    const pending = spawner.run('sleep', ['5'], env);
    spawner.close();
    await expect(pending).rejects.toThrow('the git spawner was closed');
    const run = await spawner.run('git', ['version'], env);
    expect(run.stdout.toString()).toMatch(/^git version /);
  });
});
