import { spawn } from 'node:child_process';
import { gitOperations, metricsRegistry } from '@gitforge/platform';
import { gitKind, measureGit } from './git.service.js';

describe(gitKind.name, () => {
  it('should name a git invocation by its subcommand, past any -c settings and options', () => {
    expect(gitKind(['cat-file', '--batch'])).toBe('cat-file');
    expect(
      gitKind([
        '-c',
        'core.hooksPath=/h',
        '-c',
        'receive.advertisePushOptions=true',
        'receive-pack',
        '--stateless-rpc',
        '/r.git',
      ]),
    ).toBe('receive-pack');
    expect(gitKind(['--no-pager', 'log', '-1'])).toBe('log');
    expect(gitKind([])).toBe('git');
  });
});

describe(measureGit.name, () => {
  const count = async (kind: string, outcome: string): Promise<number> =>
    (await gitOperations.get()).values.find((v) => v.labels.kind === kind && v.labels.outcome === outcome)
      ?.value ?? 0;

  const ended = (child: ReturnType<typeof spawn>): Promise<void> =>
    new Promise((resolve) => child.once('close', () => resolve()));

  it('should count a git process that ends by its kind and outcome, with its duration', async () => {
    const ok = spawn('git', ['--version']);
    measureGit(ok, 'version');
    await ended(ok);
    const failed = spawn('git', ['no-such-subcommand'], { stdio: 'ignore' });
    measureGit(failed, 'no-such-subcommand');
    await ended(failed);
    expect(await count('version', 'ok')).toBe(1);
    expect(await count('no-such-subcommand', 'error')).toBe(1);
    expect(await metricsRegistry.getSingleMetricAsString('gitforge_git_operation_duration_seconds')).toMatch(
      /^gitforge_git_operation_duration_seconds_count\{kind="version",outcome="ok"\} 1$/m,
    );
  });

  it('should take the exit codes the caller calls answers as success', async () => {
    const answered = spawn('git', ['no-such-subcommand'], { stdio: 'ignore' });
    measureGit(answered, 'answered', (code) => code === 1);
    await ended(answered);
    expect(await count('answered', 'ok')).toBe(1);
  });
});
