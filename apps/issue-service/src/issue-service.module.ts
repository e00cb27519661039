import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { IssueServiceEntities, IssueServiceMigrations } from './entities.js';
import { IssuesModule } from './issues/issues.module.js';
import { TimesModule } from './times/times.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'issue', entities: IssueServiceEntities, migrations: IssueServiceMigrations }),
    IssuesModule,
    TimesModule,
  ],
})
export class IssueServiceModule {}
