// Every workspace's test projects (unit, integration, e2e), for the root `npm test`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projects } from './jest.preset.js';

const root = dirname(fileURLToPath(import.meta.url));
const workspaces = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(root, group, d.name)),
);

export default { projects: workspaces.flatMap((dir) => projects(dir)) };
