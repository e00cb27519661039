import { Webhooks1763800000400 } from './migrations/1763800000400-webhooks.js';
import { WebhookEntity } from './hooks/webhook.entity.js';

export const AdminServiceEntities = [WebhookEntity];
export const AdminServiceMigrations = [Webhooks1763800000400];
