import { runService } from '@gitforge/platform';
import { RepoServiceModule } from './repo-service.module.js';

await runService(RepoServiceModule, 'repo');
