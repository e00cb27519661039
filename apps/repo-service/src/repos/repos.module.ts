import { Module } from '@nestjs/common';
import { RepoAccessService } from '../access/repo-access.service.js';
import { GitService } from '../git/git.service.js';
import { ReposController } from './repos.controller.js';
import { ReposRepository } from './repos.repository.js';
import { RepoSearchService } from './repo-search.service.js';
import { ReposService } from './repos.service.js';
import { RepoStaging } from './repo-staging.js';
import { DirectoryClient } from '@gitforge/platform';
import { TransfersRepository } from '../transfers/transfers.repository.js';
import { StarCounts } from '../stars/star-counts.js';
import { StarsRepository } from '../stars/stars.repository.js';
import { WatchesRepository } from '../watches/watches.repository.js';

@Module({
  controllers: [ReposController],
  providers: [ReposRepository, ReposService, RepoStaging, RepoSearchService, RepoAccessService, GitService, DirectoryClient, TransfersRepository, StarsRepository, StarCounts, WatchesRepository],
  exports: [ReposRepository, ReposService, RepoSearchService, RepoAccessService, GitService, DirectoryClient, TransfersRepository, StarsRepository, StarCounts, WatchesRepository],
})
export class ReposModule {}
