import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { IssueServiceEntities, IssueServiceMigrations } from './entities.js';
import { CommentsModule } from './comments/comments.module.js';
import { IssuesModule } from './issues/issues.module.js';
import { ReactionsModule } from './reactions/reactions.module.js';
import { SubscriptionsModule } from './subscriptions/subscriptions.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'issue', entities: IssueServiceEntities, migrations: IssueServiceMigrations }),
    IssuesModule,
    CommentsModule,
    ReactionsModule,
    SubscriptionsModule,
  ],
})
export class IssueServiceModule {}
