import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { LicensesModule } from '../licenses/licenses.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { StarCounts } from '../stars/star-counts.js';
import { StarsRepository } from '../stars/stars.repository.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import { ReposController } from './repos.controller.js';
import { RepoSearchService } from './repo-search.service.js';
import { OwnerNamesKeeper } from './owner-names.keeper.js';
import { ReposService } from './repos.service.js';
import { RepoStaging } from './repo-staging.js';

/**
 * Creating, forking, editing, deleting and searching repositories. The star and watch rows are
 * provided here because ReposService writes them (a new repository is watched by its creator, a
 * deleted one loses its stars), and the modules that need them take them from here.
 */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, LicensesModule],
  controllers: [ReposController],
  providers: [ReposService, RepoStaging, RepoSearchService, StarsRepository, StarCounts, WatchesRepository, OwnerNamesKeeper],
  exports: [ReposService, RepoSearchService, StarsRepository, StarCounts, WatchesRepository],
})
export class ReposModule {}
