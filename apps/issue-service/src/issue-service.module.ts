import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { AttachmentsModule } from './attachments/attachments.module.js';
import { IssueServiceEntities, IssueServiceMigrations } from './entities.js';
import { DependenciesModule } from './dependencies/dependencies.module.js';
import { IssueServiceConfig } from './issue.config.js';
import { IssuesModule } from './issues/issues.module.js';
import { LabelsModule } from './labels/labels.module.js';
import { MilestonesModule } from './milestones/milestones.module.js';
import { TimesModule } from './times/times.module.js';
import { ProjectsModule } from './projects/projects.module.js';
import { CommentsModule } from './comments/comments.module.js';
import { ReactionsModule } from './reactions/reactions.module.js';
import { ReviewsModule } from './reviews/reviews.module.js';
import { SubscriptionsModule } from './subscriptions/subscriptions.module.js';
import { PullsModule } from './pulls/pulls.module.js';
import { MarkupModule } from './markup/markup.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'issue', config: IssueServiceConfig, entities: IssueServiceEntities, migrations: IssueServiceMigrations }),
    IssuesModule,
    DependenciesModule,
    LabelsModule,
    MilestonesModule,
    TimesModule,
    ProjectsModule,
    CommentsModule,
    ReactionsModule,
    SubscriptionsModule,
    AttachmentsModule,
    PullsModule,
    ReviewsModule,
    MarkupModule,
  ],
})
export class IssueServiceModule {}
