import { parse } from 'yaml';
import { interpolate, MAX_EXPRESSION_DEPTH } from './expression.js';
import { matrixCombinations, MAX_MATRIX_COMBINATIONS } from './matrix.js';
import { parseWorkflow, WorkflowError } from './workflow.js';

const combos = (matrix: string) => matrixCombinations(parse(`matrix:\n${matrix}`), 'build');

/** The single job of a payload, as act_runner reads it. */
const payloadJob = (payload: string): Record<string, unknown> => {
  const jobs = (parse(payload) as { jobs: Record<string, Record<string, unknown>> }).jobs;
  expect(Object.keys(jobs)).toHaveLength(1);
  return Object.values(jobs)[0]!;
};

describe(matrixCombinations.name, () => {
  it('forms the product of the vectors, the first key outermost', () => {
    expect(combos('  os: [ubuntu, debian]\n  node: [18, 20]')).toEqual([
      { os: 'ubuntu', node: 18 },
      { os: 'ubuntu', node: 20 },
      { os: 'debian', node: 18 },
      { os: 'debian', node: 20 },
    ]);
  });

  it('drops what an exclude matches on all its keys, and refuses an exclude key the matrix lacks', () => {
    expect(combos('  os: [ubuntu, debian]\n  node: [18, 20]\n  exclude:\n    - {os: debian, node: 18}')).toEqual([
      { os: 'ubuntu', node: 18 },
      { os: 'ubuntu', node: 20 },
      { os: 'debian', node: 20 },
    ]);
    expect(combos('  os: [ubuntu, debian]\n  node: [18, 20]\n  exclude:\n    - {os: debian}')).toEqual([
      { os: 'ubuntu', node: 18 },
      { os: 'ubuntu', node: 20 },
    ]);
    expect(() => combos('  os: [ubuntu]\n  exclude:\n    - {arch: arm}')).toThrow(/exclude: key arch does not match any key/);
    // An empty exclude names nothing to match: act (and so Gitea) ignores it rather than dropping everything.
    expect(combos('  os: [ubuntu, debian]\n  exclude:\n    - {}')).toEqual([{ os: 'ubuntu' }, { os: 'debian' }]);
  });

  it('merges an include into the combinations whose original values it keeps, else adds it', () => {
    const got = combos(
      [
        '  fruit: [apple, pear]',
        '  animal: [cat, dog]',
        '  include:',
        '    - {color: green}', // no vector key: it changes no original value, so it joins them all (act's rule, GitHub's example)
        '    - {color: pink, animal: cat}', // joins both cat combinations
        '    - {fruit: apple, shape: circle}', // joins both apple combinations
        '    - {fruit: banana}', // changes an original value everywhere: added
        '    - {fruit: banana, animal: cat}', // the same
      ].join('\n'),
    );
    expect(got).toEqual([
      { fruit: 'apple', animal: 'cat', color: 'pink', shape: 'circle' },
      { fruit: 'apple', animal: 'dog', color: 'green', shape: 'circle' },
      { fruit: 'pear', animal: 'cat', color: 'pink' },
      { fruit: 'pear', animal: 'dog', color: 'green' },
      { fruit: 'banana' },
      { fruit: 'banana', animal: 'cat' },
    ]);
  });

  it('lets an include overwrite a value an earlier include added, never an original one', () => {
    expect(combos('  os: [a, b]\n  include:\n    - {os: a, v: 1}\n    - {os: a, v: 2}\n    - {os: c, v: 3}')).toEqual([
      { os: 'a', v: 2 },
      { os: 'b' },
      { os: 'c', v: 3 },
    ]);
  });

  it('compares values structurally', () => {
    expect(combos('  cfg: [{a: 1}, {a: 2}]\n  exclude:\n    - cfg: {a: 1}')).toEqual([{ cfg: { a: 2 } }]);
  });

  it('takes a matrix of includes only, and leaves expressions and a missing matrix to the runner', () => {
    expect(combos('  include:\n    - {os: a}\n    - {os: b, x: 1}')).toEqual([{ os: 'a' }, { os: 'b', x: 1 }]);
    expect(matrixCombinations(parse('matrix: ${{ fromJSON(needs.a.outputs.m) }}'), 'j')).toBeNull();
    expect(matrixCombinations(parse('matrix:\n  os: ${{ fromJSON(vars.OS) }}'), 'j')).toBeNull();
    expect(matrixCombinations(parse('fail-fast: false'), 'j')).toBeNull();
    expect(matrixCombinations(undefined, 'j')).toBeNull();
  });

  it.each([
    ['  os: ubuntu', /matrix.os must be a list of values/],
    ['  os: []', /has no combinations/],
    ['  os: [a]\n  exclude:\n    - {os: a}', /has no combinations/],
    ['  os: [a]\n  include: [x]', /include must be a list of mappings/],
    [`  a: [${Array(17).fill(0).join(',')}]\n  b: [${Array(16).fill(0).join(',')}]`, new RegExp(`more than ${MAX_MATRIX_COMBINATIONS}`)],
  ])('refuses %j with a readable reason', (matrix, reason) => {
    expect(() => combos(matrix)).toThrow(WorkflowError);
    expect(() => combos(matrix)).toThrow(reason);
  });

  it('takes as many as GitHub does: includes that merge add no combination', () => {
    const sixteen = `[${Array.from({ length: 16 }, (_, i) => i).join(',')}]`;
    expect(combos(`  a: ${sixteen}\n  b: ${sixteen}\n  include:\n    - {a: 0, extra: x}`)).toHaveLength(MAX_MATRIX_COMBINATIONS);
    expect(() => combos(`  a: ${sixteen}\n  b: ${sixteen}\n  include:\n    - {a: 99}`)).toThrow(/more than 256/);
  });

  it('refuses a strategy or matrix that is not a mapping', () => {
    expect(() => matrixCombinations(['x'], 'j')).toThrow(/jobs.j.strategy must be a mapping/);
    expect(() => matrixCombinations({ matrix: ['x'] }, 'j')).toThrow(/jobs.j.strategy.matrix must be a mapping/);
  });
});

describe('matrix jobs in parseWorkflow', () => {
  const workflow = `name: CI
on: push
jobs:
  build:
    runs-on: \${{ matrix.os }}
    strategy:
      fail-fast: false
      max-parallel: 2
      matrix:
        os: [ubuntu, debian]
        node: [18, 20]
        exclude:
          - {os: debian, node: 18}
    steps:
      - run: node --version
  lint:
    name: Lint on \${{ matrix.os }}
    runs-on: [self-hosted, "\${{ matrix.os }}-\${{ matrix.arch || 'amd64' }}"]
    strategy:
      matrix:
        os: [alpine]
        include:
          - {os: alpine, arch: arm64}
    steps:
      - run: lint
  deploy:
    needs: [build, lint]
    runs-on: ubuntu
    steps:
      - run: deploy
`;

  it('makes one job per combination under the job key, named like Gitea and ordered by the names', () => {
    const wf = parseWorkflow(workflow, 'ci.yml');
    expect(wf.jobs.map((j) => [j.jobId, j.name, j.runsOn, j.needs])).toEqual([
      ['build', 'build (18, ubuntu)', ['ubuntu'], []],
      ['build', 'build (20, debian)', ['debian'], []],
      ['build', 'build (20, ubuntu)', ['ubuntu'], []],
      ['lint', 'Lint on alpine', ['self-hosted', 'alpine-arm64'], []],
      ['deploy', 'deploy', ['ubuntu'], ['build', 'lint']],
    ]);
    expect(wf.jobs.map((j) => j.matrix)).toEqual([{ os: 'ubuntu', node: 18 }, { os: 'debian', node: 20 }, { os: 'ubuntu', node: 20 }, { os: 'alpine', arch: 'arm64' }, null]);
  });

  it('pins each payload to its combination, keeping fail-fast and max-parallel and the rest of the job', () => {
    const [first, , , lint, deploy] = parseWorkflow(workflow, 'ci.yml').jobs;
    const job = payloadJob(first!.payload);
    expect(job.name).toBe('build (18, ubuntu)');
    expect(job['runs-on']).toBe('ubuntu');
    expect(job.strategy).toEqual({ 'fail-fast': false, 'max-parallel': 2, matrix: { os: ['ubuntu'], node: [18] } });
    expect(job.steps).toEqual([{ run: 'node --version' }]);
    expect((parse(first!.payload) as { name: string; on: string }).name).toBe('CI');
    expect(payloadJob(lint!.payload)['runs-on']).toEqual(['self-hosted', 'alpine-arm64']);
    expect(payloadJob(lint!.payload).strategy).toEqual({ matrix: { os: ['alpine'], arch: ['arm64'] } });
    // A job without a matrix goes to the runner as written.
    expect(payloadJob(deploy!.payload)).toEqual({ needs: ['build', 'lint'], 'runs-on': 'ubuntu', steps: [{ run: 'deploy' }] });
  });

  it('names a job whose name has only other expressions by evaluating what it can, and a blank one by its key', () => {
    const wf = parseWorkflow(
      `on: push
jobs:
  t:
    name: "\${{ github.ref }} \${{ matrix.v }}"
    runs-on: x
    strategy: {matrix: {v: [1]}}
  u:
    name: "\${{ matrix.missing }}"
    runs-on: x
    strategy: {matrix: {v: [1, null, '']}}
`,
      'w.yml',
    );
    expect(wf.jobs.map((j) => j.name)).toEqual(['${{ github.ref }} 1', 'u', 'u', 'u']);
    // The runner does not evaluate again what the server evaluated.
    expect(payloadJob(wf.jobs[0]!.payload).name).toBe("${{ '$' }}{{ github.ref }} 1");
  });

  it('suffixes every value in the order of the sorted keys, as Go prints them, and orders the rows by it', () => {
    const wf = parseWorkflow(
      `on: push
jobs:
  t:
    runs-on: x
    strategy:
      matrix:
        os: [b]
        cfg: [{z: 1, a: [1, null]}]
        empty: ['']
        none: [null]
        Big: [Z]
        include:
          - {os: a, only: yes}
`,
      'w.yml',
    );
    // Keys byte-ordered (upper case first); '' stays as an empty place; nil, slices and maps as fmt.Sprint.
    expect(wf.jobs.map((j) => j.name)).toEqual(['t (Z, map[a:[1 <nil>] z:1], , <nil>, b)', 't (yes, a)']);
  });

  it('fails a run whose matrix is malformed with a readable reason', () => {
    expect(() => parseWorkflow('on: push\njobs:\n  a:\n    runs-on: x\n    strategy: {matrix: {os: linux}}', 'w.yml')).toThrow(/jobs.a.strategy.matrix.os must be a list/);
  });
});

describe(interpolate.name, () => {
  const m = { os: 'ubuntu', node: 18, flags: { fast: true }, list: ['a', 'b'], empty: '' };

  it('evaluates matrix properties, literals and operators', () => {
    expect(interpolate('${{ matrix.os }}-${{matrix.node}}', m)).toBe('ubuntu-18');
    expect(interpolate("${{ matrix['os'] }} ${{ matrix.OS }} ${{ matrix.flags.fast }} ${{ matrix.list[1] }}", m)).toBe('ubuntu ubuntu true b');
    expect(interpolate("${{ matrix.empty || 'none' }} ${{ matrix.os == 'UBUNTU' && 'yes' }} ${{ !matrix.os }}", m)).toBe('none yes false');
    expect(interpolate("${{ matrix.node == '18' }} ${{ matrix.node != 20 }} ${{ (matrix.missing) }}", m)).toBe('true true ');
    expect(interpolate("${{ 'it''s }}' }}", m)).toBe("it's }}");
    expect(interpolate('${{ matrix.flags }} ${{ matrix.list }}', m)).toBe('Object Array');
  });

  it('leaves an expression nested too deeply as written instead of overflowing the stack', () => {
    const parens = `\${{ ${'('.repeat(20000)}matrix.os${')'.repeat(20000)} }}`;
    const nots = `\${{ ${'!'.repeat(20000)}matrix.os }}`;
    const indexes = `\${{ matrix${"['os'".repeat(20000)}${']'.repeat(20000)} }}`;
    for (const text of [parens, nots, indexes]) expect(interpolate(text, m)).toBe(text);
    expect(interpolate(`\${{ ${'('.repeat(MAX_EXPRESSION_DEPTH - 1)}matrix.os${')'.repeat(MAX_EXPRESSION_DEPTH - 1)} }}`, m)).toBe('ubuntu');
    // A job name like that is a name, not a failed push or a 500 on dispatch.
    const wf = parseWorkflow(`on: push\njobs:\n  a:\n    name: "${parens}"\n    runs-on: x\n    strategy: {matrix: {os: [u]}}\n`, 'w.yml');
    expect(wf.jobs[0]!.name).toBe(parens);
  });

  it('leaves other contexts, functions and broken expressions as written', () => {
    expect(interpolate('${{ github.sha }} ${{ format(matrix.os) }} ${{ matrix. }} ${{ matrix.os', m)).toBe('${{ github.sha }} ${{ format(matrix.os) }} ${{ matrix. }} ${{ matrix.os');
  });
});
