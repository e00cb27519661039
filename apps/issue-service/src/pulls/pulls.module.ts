import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { LabelsModule } from '../labels/labels.module.js';
import { ReviewsModule } from '../reviews/reviews.module.js';
import { PullSyncConsumer } from './pull-sync.consumer.js';
import { PullsController } from './pulls.controller.js';
import { PullsService } from './pulls.service.js';

/** Pull requests: their routes, and the consumer that keeps them in step with pushes and statuses. */
@Module({
  imports: [IssuesModule, LabelsModule, ReviewsModule],
  controllers: [PullsController],
  providers: [PullsService, PullSyncConsumer],
  exports: [PullsService],
})
export class PullsModule {}
