import { runService } from '@gitforge/platform';
import { OrgServiceModule } from './org-service.module.js';

await runService(OrgServiceModule, 'org');
