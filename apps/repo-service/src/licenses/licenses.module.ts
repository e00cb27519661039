import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { LicensesController } from './licenses.controller.js';
import { LicensesService } from './licenses.service.js';

/** The licenses of repositories (`/repos/{owner}/{repo}/licenses`, `Repository.licenses`). */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule],
  controllers: [LicensesController],
  providers: [LicensesService],
  exports: [LicensesService],
})
export class LicensesModule {}
