import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { AttachmentHttpServer } from './attachment-http.server.js';
import { AttachmentsController } from './attachments.controller.js';
import { AttachmentsService } from './attachments.service.js';

/** Issue assets (and, built on the same scope, comment assets), with the listener that moves their bytes. */
@Module({
  imports: [IssuesModule],
  controllers: [AttachmentsController],
  providers: [AttachmentsService, AttachmentHttpServer],
  exports: [AttachmentsService],
})
export class AttachmentsModule {}
