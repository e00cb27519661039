import { runService } from '@gitforge/platform';
import { WebhookWorkerModule } from './webhook-worker.module.js';

await runService(WebhookWorkerModule, 'webhook');
