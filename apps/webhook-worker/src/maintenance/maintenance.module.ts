import { Module } from '@nestjs/common';
import { RetentionController } from './retention.controller.js';
import { RetentionRepository } from './retention.repository.js';

/** Retention of the worker's records, run by the admin cron. */
@Module({
  controllers: [RetentionController],
  providers: [RetentionRepository],
})
export class MaintenanceModule {}
