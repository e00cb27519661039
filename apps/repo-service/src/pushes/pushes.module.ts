import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { HousekeepingModule } from '../maintenance/housekeeping.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { PushesService } from './pushes.service.js';

/** The aftermath of moved refs (row bookkeeping, push/create/delete events), for every way refs move. */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, HousekeepingModule],
  providers: [PushesService],
  exports: [PushesService],
})
export class PushesModule {}
