import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AttachmentPatterns, type Attachment, type EditAttachmentOptions, type RpcRequest } from '@gitforge/contracts';
import { AttachmentsService } from './attachments.service.js';

type IssueParams = { owner: string; repo: string; index: string };
type AttachmentParams = IssueParams & { attachment_id: string };

/** The issue assets routes that carry no bytes; uploads and downloads go through AttachmentHttpServer. */
@Controller()
export class AttachmentsController {
  constructor(private readonly attachments: AttachmentsService) {}

  @MessagePattern(AttachmentPatterns.listForIssue)
  list(@Payload() req: RpcRequest<IssueParams>): Promise<Attachment[]> {
    return this.attachments.listForIssue(req.actor, req.params.owner, req.params.repo, req.params.index);
  }

  @MessagePattern(AttachmentPatterns.getForIssue)
  get(@Payload() req: RpcRequest<AttachmentParams>): Promise<Attachment> {
    return this.attachments.getForIssue(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.attachment_id);
  }

  @MessagePattern(AttachmentPatterns.editForIssue)
  edit(@Payload() req: RpcRequest<AttachmentParams, EditAttachmentOptions>): Promise<Attachment> {
    return this.attachments.editForIssue(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.attachment_id, req.body);
  }

  @MessagePattern(AttachmentPatterns.deleteForIssue)
  delete(@Payload() req: RpcRequest<AttachmentParams>): Promise<void> {
    return this.attachments.deleteForIssue(req.actor, req.params.owner, req.params.repo, req.params.index, req.params.attachment_id);
  }
}
