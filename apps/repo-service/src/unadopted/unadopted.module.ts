import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { UnadoptedController } from './unadopted.controller.js';
import { UnadoptedService } from './unadopted.service.js';

/** `/admin/unadopted`: repositories dropped into the volume in Gitea's layout, listed, adopted (through ReposService) or removed. */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, ReposModule],
  controllers: [UnadoptedController],
  providers: [UnadoptedService],
})
export class UnadoptedModule {}
