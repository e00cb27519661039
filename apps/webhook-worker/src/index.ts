export { WebhookWorkerModule } from './webhook-worker.module.js';
