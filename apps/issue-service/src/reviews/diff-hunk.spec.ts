import { cutDiffAroundLine, diffHunkOf, fileDiff } from './diff-hunk.js';

const twoFiles = [
  'diff --git a/README.md b/README.md',
  'index 1111111..2222222 100644',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1,2 +1,2 @@',
  ' # title',
  '-old',
  '+new',
  'diff --git a/src/a.txt b/src/a.txt',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/src/a.txt',
  '@@ -0,0 +1,8 @@',
  '+l1',
  '+l2',
  '+l3',
  '+l4',
  '+l5',
  '+l6',
  '+l7',
  '+l8',
  '',
].join('\n');

describe('diff hunks', () => {
  it('should take the section of one file out of a whole diff', () => {
    const a = fileDiff(twoFiles, 'src/a.txt');
    expect(a.split('\n')[0]).toBe('diff --git a/src/a.txt b/src/a.txt');
    expect(a).toContain('+l8');
    expect(a).not.toContain('README');
    expect(fileDiff(twoFiles, 'README.md')).toContain('+new');
    expect(fileDiff(twoFiles, 'missing.txt')).toBe('');
  });

  it('should cut a long hunk to the lines ending at the commented line, with its header recomputed', () => {
    const patch = cutDiffAroundLine(fileDiff(twoFiles, 'src/a.txt'), 6, false);
    expect(patch.split('\n').slice(-5)).toEqual(['@@ -0,0 +3,4 @@', '+l3', '+l4', '+l5', '+l6']);
    expect(patch.startsWith('diff --git a/src/a.txt b/src/a.txt\n')).toBe(true);
    expect(diffHunkOf(patch)).toBe('@@ -0,0 +3,4 @@\n+l3\n+l4\n+l5\n+l6');
  });

  it('should keep a short hunk whole up to the line, on the base side too', () => {
    const readme = fileDiff(twoFiles, 'README.md');
    expect(diffHunkOf(cutDiffAroundLine(readme, 2, true))).toBe('@@ -1,2 +1,2 @@\n # title\n-old');
    expect(diffHunkOf(cutDiffAroundLine(readme, 2, false))).toBe('@@ -1,2 +1,2 @@\n # title\n-old\n+new');
  });

  it('should answer nothing for a line outside every hunk or no line', () => {
    const readme = fileDiff(twoFiles, 'README.md');
    expect(cutDiffAroundLine(readme, 40, false)).toBe('');
    expect(cutDiffAroundLine(readme, 0, false)).toBe('');
    expect(diffHunkOf('')).toBe('');
  });
});
