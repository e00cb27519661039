import { compiledScript } from './compiled-script.js';

describe(compiledScript.name, () => {
  it('should find the script beside a compiled module', () => {
    expect(compiledScript('file:///srv/app/packages/platform/dist/storage/digests.js', 'digest-worker').href).toBe(
      'file:///srv/app/packages/platform/dist/storage/digest-worker.js',
    );
  });

  it("should find it in the package's dist when the module runs from its TypeScript source, whatever the path above the package", () => {
    expect(compiledScript('file:///srv/app/packages/platform/src/storage/digests.ts', 'digest-worker').href).toBe(
      'file:///srv/app/packages/platform/dist/storage/digest-worker.js',
    );
    expect(compiledScript('file:///home/src/gitforge/apps/repo-service/src/git/git-spawner.ts', 'git-spawner.process').href).toBe(
      'file:///home/src/gitforge/apps/repo-service/dist/git/git-spawner.process.js',
    );
  });
});
