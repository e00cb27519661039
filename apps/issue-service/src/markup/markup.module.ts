import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { MarkupController } from './markup.controller.js';
import { MarkupService } from './markup.service.js';

/** Markdown previews (`/markdown`, `/markup`): issue-service renders what issues and comments hold. */
@Module({
  imports: [IssuesModule],
  controllers: [MarkupController],
  providers: [MarkupService],
})
export class MarkupModule {}
