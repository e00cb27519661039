import { runService } from '@gitforge/platform';
import { IssueServiceModule } from './issue-service.module.js';

await runService(IssueServiceModule, 'issue');
