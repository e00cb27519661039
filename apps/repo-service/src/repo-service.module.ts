import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { RepoServiceEntities, RepoServiceMigrations } from './entities.js';
import { RepoFactsModule } from './facts/repo-facts.module.js';
import { RepoServiceConfig } from './repo.config.js';
import { ReposModule } from './repos/repos.module.js';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'repo',
      config: RepoServiceConfig,
      entities: RepoServiceEntities,
      migrations: RepoServiceMigrations,
    }),
    ReposModule,
    RepoFactsModule,
  ],
})
export class RepoServiceModule {}
