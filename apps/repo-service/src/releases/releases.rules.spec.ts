import { archivePaths, parseArchiveName } from './archives.js';
import { assetNameProblem } from './releases.service.js';

describe('release rules', () => {
  it.each([
    ['v1.0.tar.gz', { ref: 'v1.0', format: 'tar.gz' }],
    ['release/2.zip', { ref: 'release/2', format: 'zip' }],
    ['main.bundle', { ref: 'main', format: 'bundle' }],
  ])('should split the archive name %s into its ref and format', (name, expected) => {
    expect(parseArchiveName(name)).toMatchObject(expected);
  });

  it.each(['v1.rar', '.zip', 'v1.tar', 'tar.gz'])('should know no format in %s', (name) => {
    expect(parseArchiveName(name)).toBeNull();
  });

  it.each(['app.tar.gz', 'NOTES.md', 'a..b', '.hidden'])('should accept the asset name %s', (name) => {
    expect(assetNameProblem(name)).toBeNull();
  });

  it.each(['', '..', '.', '../x', 'a/b', 'a\\b', 'nul\0', 'x'.repeat(256)])('should refuse the asset name %j', (name) => {
    expect(assetNameProblem(name)).not.toBeNull();
  });

  it('should keep archive subpaths inside the tree, sorted and without duplicates', () => {
    expect(archivePaths(['src/', 'docs', 'src', ''])).toEqual(['docs', 'src']);
    expect(archivePaths([])).toEqual([]);
    for (const bad of ['../x', 'a/../../b', '/etc', '-x', '--output=y', 'a//b', './a', 'a\\b', 'nul\0']) expect(archivePaths([bad])).toBeNull();
  });
});
