import { Module } from '@nestjs/common';
import { ReleasesModule } from '../releases/releases.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { HousekeepingModule } from './housekeeping.module.js';
import { MaintenanceController } from './maintenance.controller.js';
import { MaintenanceService } from './maintenance.service.js';

/** The repository passes the admin cron asks for: health check, recounts, garbage collection, archive cache. */
@Module({
  imports: [ReposModule, ReleasesModule, HousekeepingModule],
  controllers: [MaintenanceController],
  providers: [MaintenanceService],
})
export class MaintenanceModule {}
