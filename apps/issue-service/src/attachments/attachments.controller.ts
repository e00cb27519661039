import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AttachmentPatterns,
  type Attachment,
  type EditAttachmentOptions,
  type GeneralAttachmentSettings,
  type RpcRequest,
} from '@gitforge/contracts';
import { AttachmentsService } from './attachments.service.js';

type IssueParams = { owner: string; repo: string; index: string };
type AttachmentParams = IssueParams & { attachment_id: string };
type CommentParams = { owner: string; repo: string; id: string };
type CommentAttachmentParams = CommentParams & { attachment_id: string };

/** The issue and comment assets routes that carry no bytes; uploads and downloads go through AttachmentHttpServer. */
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

  @MessagePattern(AttachmentPatterns.listForComment)
  listForComment(@Payload() req: RpcRequest<CommentParams>): Promise<Attachment[]> {
    return this.attachments.listForComment(req.actor, req.params.owner, req.params.repo, req.params.id);
  }

  @MessagePattern(AttachmentPatterns.getForComment)
  getForComment(@Payload() req: RpcRequest<CommentAttachmentParams>): Promise<Attachment> {
    return this.attachments.getForComment(req.actor, req.params.owner, req.params.repo, req.params.id, req.params.attachment_id);
  }

  @MessagePattern(AttachmentPatterns.editForComment)
  editForComment(@Payload() req: RpcRequest<CommentAttachmentParams, EditAttachmentOptions>): Promise<Attachment> {
    return this.attachments.editForComment(req.actor, req.params.owner, req.params.repo, req.params.id, req.params.attachment_id, req.body);
  }

  @MessagePattern(AttachmentPatterns.deleteForComment)
  deleteForComment(@Payload() req: RpcRequest<CommentAttachmentParams>): Promise<void> {
    return this.attachments.deleteForComment(req.actor, req.params.owner, req.params.repo, req.params.id, req.params.attachment_id);
  }

  @MessagePattern(AttachmentPatterns.settings)
  settings(): GeneralAttachmentSettings {
    return this.attachments.settings();
  }
}
