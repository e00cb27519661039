import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projects } from '../../jest.preset.js';

export default { projects: projects(dirname(fileURLToPath(import.meta.url))) };
