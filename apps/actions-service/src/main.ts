import { runService } from '@gitforge/platform';
import { ActionsServiceModule } from './actions-service.module.js';

await runService(ActionsServiceModule, 'actions');
