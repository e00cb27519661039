import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module.js';
import { IssuesModule } from '../issues/issues.module.js';
import { ReviewsController } from './reviews.controller.js';
import { ReviewsService } from './reviews.service.js';

/**
 * Pull request reviews, review requests and line comments. Exports what the pull core needs:
 * ReviewsService.markStale for pull-sync; ReviewsRepository's batched loaders (latestVerdicts,
 * requestedReviewers, reviewCommentCounts) are shared by IssuesModule for merging and the pull mapper.
 */
@Module({
  imports: [IssuesModule, CommentsModule],
  controllers: [ReviewsController],
  providers: [ReviewsService],
  exports: [ReviewsService],
})
export class ReviewsModule {}
