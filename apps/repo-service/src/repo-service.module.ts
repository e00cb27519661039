import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { RepoServiceEntities, RepoServiceMigrations } from './entities.js';
import { RepoFactsModule } from './facts/repo-facts.module.js';
import { RepoServiceConfig } from './repo.config.js';
import { RepoActionsModule } from './actions/repo-actions.module.js';
import { BranchesModule } from './branches/branches.module.js';
import { CollaboratorsModule } from './collaborators/collaborators.module.js';
import { CommitsModule } from './commits/commits.module.js';
import { ContentsModule } from './contents/contents.module.js';
import { DeployKeysModule } from './keys/deploy-keys.module.js';
import { MaintenanceModule } from './maintenance/maintenance.module.js';
import { LanguagesModule } from './languages/languages.module.js';
import { LicensesModule } from './licenses/licenses.module.js';
import { FilesModule } from './files/files.module.js';
import { ProtectionsModule } from './protections/protections.module.js';
import { PullsGitModule } from './pulls/pulls-git.module.js';
import { PackagesModule } from './packages/packages.module.js';
import { ReleasesModule } from './releases/releases.module.js';
import { RepoTeamsModule } from './repo-teams/repo-teams.module.js';
import { RepoFilesModule } from './repo-files/repo-files.module.js';
import { ReposModule } from './repos/repos.module.js';
import { SmartHttpModule } from './smart-http/smart-http.module.js';
import { SshModule } from './ssh/ssh.module.js';
import { StatusesModule } from './statuses/statuses.module.js';
import { TagsModule } from './tags/tags.module.js';
import { TopicsModule } from './topics/topics.module.js';
import { TransfersModule } from './transfers/transfers.module.js';
import { UnadoptedModule } from './unadopted/unadopted.module.js';
import { StarsModule } from './stars/stars.module.js';
import { WatchesModule } from './watches/watches.module.js';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'repo',
      config: RepoServiceConfig,
      entities: RepoServiceEntities,
      migrations: RepoServiceMigrations,
    }),
    ReposModule,
    CollaboratorsModule,
    RepoTeamsModule,
    ProtectionsModule,
    SmartHttpModule,
    ContentsModule,
    FilesModule,
    BranchesModule,
    CommitsModule,
    StatusesModule,
    RepoActionsModule,
    TagsModule,
    TopicsModule,
    RepoFactsModule,
    PullsGitModule,
    TransfersModule,
    StarsModule,
    WatchesModule,
    DeployKeysModule,
    LanguagesModule,
    LicensesModule,
    RepoFilesModule,
    ReleasesModule,
    MaintenanceModule,
    PackagesModule,
    SshModule,
    UnadoptedModule,
  ],
})
export class RepoServiceModule {}
