import { Module } from '@nestjs/common';
import { DirectoryClient } from '@gitforge/platform';
import { NotificationProjector } from './notification.projector.js';
import { NotificationsController } from './notifications.controller.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

/** Notifications: the projector writing threads, and Gitea's `/notifications` reads on them. */
@Module({
  controllers: [NotificationsController],
  providers: [NotificationsRepository, NotificationProjector, NotificationsService, DirectoryClient],
})
export class NotificationsModule {}
