import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { CommentLoader } from './comment-loader.js';
import { CommentsController } from './comments.controller.js';
import { CommentsService } from './comments.service.js';

/** Issue comments and the issue timeline; exports the comment lookup that reactions share, and the comment loader that reviews share. */
@Module({
  imports: [IssuesModule],
  controllers: [CommentsController],
  providers: [CommentLoader, CommentsService],
  exports: [CommentsService, CommentLoader],
})
export class CommentsModule {}
