import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { HousekeepingModule } from '../maintenance/housekeeping.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { PushesService } from './pushes.service.js';

/** The aftermath of moved refs (row bookkeeping, push/create/delete events), for every way refs move. */
@Module({
  imports: [ReposModule, RepoGitModule, HousekeepingModule],
  providers: [PushesService],
  exports: [PushesService],
})
export class PushesModule {}
