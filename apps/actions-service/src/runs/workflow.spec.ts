import { dispatchInputDefaults, MAX_RUN_JOBS, parseWorkflow, WorkflowError, workflowMatches, workflowName } from './workflow.js';

const push = (ref: string, changedPaths: string[] | null = null) => ({ event: 'push', ref, changedPaths });

describe(parseWorkflow.name, () => {
  it('refuses a run of more than 1024 jobs, matrix combinations included, though each matrix stays within 256', () => {
    const sixteen = `[${Array.from({ length: 16 }, (_, i) => i).join(', ')}]`;
    const matrixJob = (key: string) => `  ${key}:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        a: ${sixteen}\n        b: ${sixteen}\n    steps:\n      - run: echo\n`;
    const plain = `  plain:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n`;
    const four = ['one', 'two', 'three', 'four'].map(matrixJob).join('');
    expect(parseWorkflow(`on: push\njobs:\n${four}`, 'ci.yml').jobs).toHaveLength(MAX_RUN_JOBS);
    expect(() => parseWorkflow(`on: push\njobs:\n${four}${plain}`, 'ci.yml')).toThrow(
      new WorkflowError('the workflow has more than 1024 jobs, matrix combinations included'),
    );
  });

  it('reads on:, runs-on, needs and step names, one payload per job', () => {
    const wf = parseWorkflow(
      `name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: [ubuntu-latest, self-hosted]
    steps:
      - uses: actions/checkout@v4
      - name: Make
        run: make
  test:
    name: Unit tests
    needs: [build]
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: |
          npm test
          echo done
`,
      'ci.yml',
    );
    expect(wf.name).toBe('CI');
    expect([...wf.on.keys()]).toEqual(['push']);
    expect(wf.jobs.map((j) => [j.jobId, j.name, j.runsOn, j.needs, j.stepNames, j.condition])).toEqual([
      ['build', 'build', ['ubuntu-latest', 'self-hosted'], [], ['actions/checkout@v4', 'Make'], ''],
      ['test', 'Unit tests', ['ubuntu-latest'], ['build'], ['npm test'], 'always()'],
    ]);
    expect(wf.jobs[0]!.payload).toContain('build:');
    expect(wf.jobs[0]!.payload).not.toContain('Unit tests');
  });

  it('takes `on` as a string, a list or a mapping, and names a nameless workflow by its file', () => {
    expect([...parseWorkflow('on: push\njobs: {a: {runs-on: x}}', 'a.yml').on.keys()]).toEqual(['push']);
    expect([...parseWorkflow('on: [push, workflow_dispatch]\njobs: {a: {runs-on: x}}', 'a.yml').on.keys()]).toEqual(['push', 'workflow_dispatch']);
    expect(parseWorkflow('on: push\njobs: {a: {runs-on: x}}', 'a.yml').name).toBe('a.yml');
  });

  it.each([
    ['jobs: [', /invalid YAML/],
    ['- a\n- b', /must be a mapping/],
    ['jobs: {a: {runs-on: x}}', /no `on`/],
    ['on: push', /`jobs` must be a mapping/],
    ['on: push\njobs: {}', /no jobs/],
    ['on: push\njobs: {a: {steps: []}}', /a has no runs-on/],
    ['on: push\njobs: {a: {runs-on: x, needs: b}}', /needs unknown job b/],
    ['on: push\njobs: {a: {runs-on: x, needs: b}, b: {runs-on: x, needs: a}}', /cycle/],
    ['on: push\njobs: {a: {runs-on: x, steps: {}}}', /steps must be a list/],
    ['on: push\njobs: {a: {runs-on: x}, a: {runs-on: y}}', /invalid YAML/],
    ['on: push\njobs:\n  a: {runs-on: x}\n  a: {runs-on: y}\n', /^invalid YAML: Map keys must be unique at line 4, column 3$/],
  ])('refuses %j with a readable reason', (content, reason) => {
    expect(() => parseWorkflow(content, 'bad.yml')).toThrow(WorkflowError);
    expect(() => parseWorkflow(content, 'bad.yml')).toThrow(reason);
  });

  it('keeps the triggers of a file whose jobs are wrong, so only matching events fail', () => {
    try {
      parseWorkflow('on: workflow_dispatch\njobs: {a: {}}', 'x.yml');
      throw new Error('parsed');
    } catch (err) {
      expect(err).toBeInstanceOf(WorkflowError);
      expect([...(err as WorkflowError).on!.keys()]).toEqual(['workflow_dispatch']);
    }
  });

  it('fails a file with an alias the yaml library will not resolve with a readable reason', () => {
    const bomb = `on: push\na: &a [x]\nb: [${Array(150).fill('*a').join(',')}]\njobs: {j: {runs-on: x}}`;
    expect(() => parseWorkflow(bomb, 'bomb.yml')).toThrow(WorkflowError);
    expect(() => parseWorkflow('on: push\nx: *nowhere\njobs: {j: {runs-on: x}}', 'alias.yml')).toThrow(WorkflowError);
  });

  it('reads the name alone, and dispatch input defaults', () => {
    expect(workflowName('name: Deploy\njobs: nonsense', 'd.yml')).toBe('Deploy');
    expect(workflowName(': :', 'd.yml')).toBe('d.yml');
    const wf = parseWorkflow('on:\n  workflow_dispatch:\n    inputs:\n      size: {default: m}\n      name: {}\njobs: {a: {runs-on: x}}', 'd.yml');
    expect(dispatchInputDefaults(wf)).toEqual({ size: 'm' });
  });
});

describe(workflowMatches.name, () => {
  const wf = (on: string) => parseWorkflow(`on:\n${on}\njobs: {a: {runs-on: x}}`, 'w.yml');

  it('matches the event and branch globs, where * stops at a slash and ** does not', () => {
    const w = wf('  push:\n    branches: [main, "release/*", "feature/**"]');
    expect(workflowMatches(w, push('refs/heads/main'))).toBe(true);
    expect(workflowMatches(w, push('refs/heads/release/1.0'))).toBe(true);
    expect(workflowMatches(w, push('refs/heads/release/1.0/hotfix'))).toBe(false);
    expect(workflowMatches(w, push('refs/heads/feature/a/b'))).toBe(true);
    expect(workflowMatches(w, push('refs/heads/dev'))).toBe(false);
    // A branch-only filter ignores tag pushes.
    expect(workflowMatches(w, push('refs/tags/v1'))).toBe(false);
    expect(workflowMatches(w, { event: 'pull_request', ref: 'refs/heads/main', changedPaths: null })).toBe(false);
  });

  it('applies branches-ignore, tags, tags-ignore and negated patterns', () => {
    expect(workflowMatches(wf('  push:\n    branches-ignore: ["wip/**"]'), push('refs/heads/wip/x'))).toBe(false);
    expect(workflowMatches(wf('  push:\n    branches-ignore: ["wip/**"]'), push('refs/heads/main'))).toBe(true);
    const tags = wf('  push:\n    tags: ["v*"]');
    expect(workflowMatches(tags, push('refs/tags/v1.2'))).toBe(true);
    expect(workflowMatches(tags, push('refs/heads/main'))).toBe(false);
    expect(workflowMatches(wf('  push:\n    tags-ignore: ["v*"]'), push('refs/tags/v1'))).toBe(false);
    const negated = wf('  push:\n    branches: ["release/**", "!release/**-alpha"]');
    expect(workflowMatches(negated, push('refs/heads/release/2-alpha'))).toBe(false);
    expect(workflowMatches(negated, push('refs/heads/release/2'))).toBe(true);
  });

  it('applies paths and paths-ignore to the changed files when they are known', () => {
    const docs = wf('  push:\n    paths: ["docs/**"]');
    expect(workflowMatches(docs, push('refs/heads/main', ['src/a.ts']))).toBe(false);
    expect(workflowMatches(docs, push('refs/heads/main', ['src/a.ts', 'docs/guide/x.md']))).toBe(true);
    expect(workflowMatches(docs, push('refs/heads/main', null))).toBe(true);
    const ignore = wf('  push:\n    paths-ignore: ["**.md"]');
    expect(workflowMatches(ignore, push('refs/heads/main', ['README.md']))).toBe(false);
    expect(workflowMatches(ignore, push('refs/heads/main', ['README.md', 'a.ts']))).toBe(true);
  });

  it('passes events without filters, and never a malformed glob', () => {
    expect(workflowMatches(wf('  workflow_dispatch:'), { event: 'workflow_dispatch', ref: 'refs/heads/x', changedPaths: null })).toBe(true);
    expect(workflowMatches(wf('  push:\n    branches: ["[main"]'), push('refs/heads/main'))).toBe(false);
  });
});

describe('pull_request triggers', () => {
  const wf = (on: string) => parseWorkflow(`on:\n${on}\njobs: {a: {runs-on: x}}`, 'w.yml');
  const pr = (action: string, base = 'refs/heads/main') => ({ event: 'pull_request', ref: base, changedPaths: null, action });

  it('takes the default activities unless types says otherwise, and filters on the base branch', () => {
    const w = wf('  pull_request:\n    branches: [main]');
    expect(workflowMatches(w, pr('opened'))).toBe(true);
    expect(workflowMatches(w, pr('synchronize'))).toBe(true);
    expect(workflowMatches(w, pr('closed'))).toBe(false);
    expect(workflowMatches(w, pr('opened', 'refs/heads/dev'))).toBe(false);
    const typed = wf('  pull_request:\n    types: [reopened]');
    expect(workflowMatches(typed, pr('opened'))).toBe(false);
    expect(workflowMatches(typed, pr('reopened'))).toBe(true);
  });
});
