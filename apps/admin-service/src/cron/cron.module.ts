import { Module } from '@nestjs/common';
import { NoticesService } from '../notices/notices.service.js';
import { CronController } from './cron.controller.js';
import { CronRepository } from './cron.repository.js';
import { CronService } from './cron.service.js';
import { CronTaskRegistry } from './cron-task.registry.js';
import { ActionsCronTasks } from './tasks/actions-tasks.js';
import { GiteaCronTasks } from './tasks/gitea-tasks.js';

/**
 * Scheduled tasks (`/admin/cron`). Another feature adds a task by providing, in a module that
 * imports this one, a class whose onModuleInit calls `CronTaskRegistry.register` (as GiteaCronTasks).
 */
@Module({
  controllers: [CronController],
  providers: [CronTaskRegistry, CronRepository, CronService, NoticesService, GiteaCronTasks, ActionsCronTasks],
  exports: [CronTaskRegistry, NoticesService],
})
export class CronModule {}
