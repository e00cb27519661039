import { CronTaskRegistry, type CronTaskDefinition } from './cron-task.registry.js';

const task = (name: string): CronTaskDefinition => ({
  name,
  enabled: true,
  schedule: '@midnight',
  run: async () => undefined,
});

describe(CronTaskRegistry.name, () => {
  it("should list tasks in Gitea's order whatever order they were registered in, unknown names last", () => {
    const sut = new CronTaskRegistry();
    for (const name of [
      'zz_custom',
      'git_gc_repos',
      'stop_zombie_tasks',
      'repo_health_check',
      'cleanup_packages',
      'aa_custom',
    ])
      sut.register(task(name));
    expect(sut.all().map((t) => t.name)).toEqual([
      'repo_health_check',
      'cleanup_packages',
      'git_gc_repos',
      'stop_zombie_tasks',
      'zz_custom',
      'aa_custom',
    ]);
  });

  it('should refuse a name registered twice or one that is not a task name', () => {
    const sut = new CronTaskRegistry();
    sut.register(task('git_gc_repos'));
    expect(() => sut.register(task('git_gc_repos'))).toThrow(/twice/);
    expect(() => sut.register(task('Bad Name'))).toThrow(/bad cron task name/);
  });
});
