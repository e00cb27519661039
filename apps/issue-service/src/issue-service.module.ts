import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { IssueServiceEntities, IssueServiceMigrations } from './entities.js';
import { IssueServiceConfig } from './issue.config.js';
import { IssuesModule } from './issues/issues.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'issue', config: IssueServiceConfig, entities: IssueServiceEntities, migrations: IssueServiceMigrations }),
    IssuesModule,
    AttachmentsModule,
  ],
})
export class IssueServiceModule {}
