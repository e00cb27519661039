import { RetentionIndexes1763800000520 } from './migrations/1763800000520-retention-indexes.js';
import { DeliveryBodyFromTask1763800000840 } from './migrations/1763800000840-delivery-body-from-task.js';
import { HookTaskBatch1763800000900 } from './migrations/1763800000900-hook-task-batch.js';
import { HookTaskEvent1763800000920 } from './migrations/1763800000920-hook-task-event.js';
import { HookPayload1763800000940 } from './migrations/1763800000940-hook-payload.js';
import { ColdHookIndexes1763800000950 } from './migrations/1763800000950-cold-hook-indexes.js';
import { ActionEntity } from './feeds/action.entity.js';
import { HookTasks1763800000500 } from './migrations/1763800000500-hook-tasks.js';
import { Actions1763800000501 } from './migrations/1763800000501-actions.js';
import { ActionComment1763800000502 } from './migrations/1763800000502-action-comment.js';
import { Notifications1763800000510 } from './migrations/1763800000510-notifications.js';
import { NotificationEntity, NotificationEventEntity } from './notifications/notification.entity.js';
import { HookDeliveryEntity, HookPayloadEntity, HookTaskEntity } from './webhooks/hook-task.entity.js';

export const WebhookWorkerEntities = [HookTaskEntity, HookPayloadEntity, HookDeliveryEntity, ActionEntity, NotificationEntity, NotificationEventEntity];
export const WebhookWorkerMigrations = [HookTasks1763800000500, Actions1763800000501, ActionComment1763800000502, Notifications1763800000510, RetentionIndexes1763800000520, DeliveryBodyFromTask1763800000840, HookTaskBatch1763800000900, HookTaskEvent1763800000920, HookPayload1763800000940, ColdHookIndexes1763800000950];
