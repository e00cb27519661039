import { Module } from '@nestjs/common';
import { CommentsModule } from '../comments/comments.module.js';
import { IssuesModule } from '../issues/issues.module.js';
import { AttachmentHttpServer } from './attachment-http.server.js';
import { AttachmentsController } from './attachments.controller.js';
import { AttachmentsService } from './attachments.service.js';

/** Issue and comment assets, built on one scope, with the listener that moves their bytes. */
@Module({
  imports: [IssuesModule, CommentsModule],
  controllers: [AttachmentsController],
  providers: [AttachmentsService, AttachmentHttpServer],
  exports: [AttachmentsService],
})
export class AttachmentsModule {}
