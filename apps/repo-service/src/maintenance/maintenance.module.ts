import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { LicensesModule } from '../licenses/licenses.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { ReleasesModule } from '../releases/releases.module.js';
import { HousekeepingModule } from './housekeeping.module.js';
import { MaintenanceController } from './maintenance.controller.js';
import { MaintenanceService } from './maintenance.service.js';

/** The repository passes the admin cron asks for: health check, recounts, garbage collection, licenses, missing directories, archive cache. */
@Module({
  imports: [GitModule, AccessModule, ReleasesModule, HousekeepingModule, LicensesModule, RepoRecordsModule],
  controllers: [MaintenanceController],
  providers: [MaintenanceService],
})
export class MaintenanceModule {}
