import { Module } from '@nestjs/common';
import { DirectoryClient } from '@gitforge/platform';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { RepoAccessService } from './repo-access.service.js';

/** Who may do what in a repository (RepoAccessService), and org-service's directory it asks about owners and users. */
@Module({
  imports: [RepoRecordsModule],
  providers: [RepoAccessService, DirectoryClient],
  exports: [RepoAccessService, DirectoryClient],
})
export class AccessModule {}
