// Shared Jest settings: ESM all the way (Nest 12, @nestjs/microservices and TypeORM's ESM entry),
// TypeScript through ts-jest, workspace packages resolved to their sources.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^@gitforge/(contracts|platform)$': `${root}/packages/$1/src/index.ts`,
    '^@gitforge/platform/testing$': `${root}/packages/platform/src/testing/index.ts`,
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFiles: [`${root}/jest.setup.js`],
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: resolve(root, 'tsconfig.jest.json') }],
  },
};

/** The three test projects every workspace may have (docs/style.md §3). */
export function projects(dir) {
  const all = [
    { ...base, displayName: 'unit', rootDir: dir, roots: ['<rootDir>/src'], testMatch: ['**/*.spec.ts'] },
    {
      ...base,
      displayName: 'integration',
      rootDir: dir,
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.int-spec.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      rootDir: dir,
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
    },
  ];
  // A project whose folder does not exist yet has no tests; Jest would refuse its root.
  return all.filter((p) => existsSync(resolve(dir, p.roots[0].replace('<rootDir>/', ''))));
}
