import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module.js';
import { IssuesModule } from '../issues/issues.module.js';
import { ReactionsController } from './reactions.controller.js';
import { ReactionsService } from './reactions.service.js';

/** Reactions to issues and to their comments. */
@Module({
  imports: [IssuesModule, CommentsModule],
  controllers: [ReactionsController],
  providers: [ReactionsService],
})
export class ReactionsModule {}
