import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module.js';
import { IssuesModule } from '../issues/issues.module.js';
import { ReviewEvents } from './review-events.js';
import { ReviewsController } from './reviews.controller.js';
import { ReviewsRepository } from './reviews.repository.js';
import { ReviewsService } from './reviews.service.js';

/**
 * Pull request reviews, review requests and line comments. Exports what the pull core needs:
 * ReviewsService.markStale for pull-sync, and ReviewsRepository's batched loaders
 * (latestVerdicts, requestedReviewers, reviewCommentCounts) for merging and the pull mapper.
 */
@Module({
  imports: [IssuesModule, CommentsModule],
  controllers: [ReviewsController],
  providers: [ReviewsRepository, ReviewEvents, ReviewsService],
  exports: [ReviewsRepository, ReviewsService],
})
export class ReviewsModule {}
