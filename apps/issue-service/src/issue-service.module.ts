import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { IssueServiceEntities, IssueServiceMigrations } from './entities.js';
import { IssuesModule } from './issues/issues.module.js';
import { ProjectsModule } from './projects/projects.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'issue', entities: IssueServiceEntities, migrations: IssueServiceMigrations }),
    IssuesModule,
    ProjectsModule,
  ],
})
export class IssueServiceModule {}
