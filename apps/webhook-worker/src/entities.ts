import { ActionEntity } from './feeds/action.entity.js';
import { HookTasks1763800000500 } from './migrations/1763800000500-hook-tasks.js';
import { Actions1763800000501 } from './migrations/1763800000501-actions.js';
import { ActionComment1763800000502 } from './migrations/1763800000502-action-comment.js';
import { HookDeliveryEntity, HookTaskEntity } from './webhooks/hook-task.entity.js';

export const WebhookWorkerEntities = [HookTaskEntity, HookDeliveryEntity, ActionEntity];
export const WebhookWorkerMigrations = [HookTasks1763800000500, Actions1763800000501, ActionComment1763800000502];
