import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { WebhookWorkerEntities, WebhookWorkerMigrations } from './entities.js';
import { FeedsModule } from './feeds/feeds.module.js';
import { MaintenanceModule } from './maintenance/maintenance.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { WebhookWorkerConfig } from './worker.config.js';

/** Queue consumers (webhook delivery, activity and notification projectors) and the reads they serve (deliveries, feeds, notifications). */
@Module({
  imports: [
    PlatformModule.forService({
      service: 'webhook',
      config: WebhookWorkerConfig,
      entities: WebhookWorkerEntities,
      migrations: WebhookWorkerMigrations,
    }),
    WebhooksModule,
    FeedsModule,
    NotificationsModule,
    MaintenanceModule,
  ],
})
export class WebhookWorkerModule {}
