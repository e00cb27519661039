import { Webhooks1763800000400 } from './migrations/1763800000400-webhooks.js';
import { CronAndNotices1763800000410 } from './migrations/1763800000410-cron-and-notices.js';
import { SealedHookSecrets1763800000420 } from './migrations/1763800000420-sealed-hook-secrets.js';
import { CronTaskEntity } from './cron/cron-task.entity.js';
import { WebhookEntity } from './hooks/webhook.entity.js';
import { SystemNoticeEntity } from './notices/system-notice.entity.js';

export const AdminServiceEntities = [WebhookEntity, CronTaskEntity, SystemNoticeEntity];
export const AdminServiceMigrations = [Webhooks1763800000400, CronAndNotices1763800000410, SealedHookSecrets1763800000420];
