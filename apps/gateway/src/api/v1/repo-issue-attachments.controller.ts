import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AttachmentPatterns, EditAttachmentOptions, ReleasePatterns, type Actor, type Attachment } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { AttachmentProxy } from '../../http/attachment-proxy.js';

type IssueParams = { owner: string; repo: string; index: string };
type AttachmentParams = IssueParams & { attachment_id: string };

const seg = encodeURIComponent;

/** `/repos/{owner}/{repo}/issues/{index}/assets…` (token scope `issue`); uploads stream to issue-service. */
@Controller('api/v1/repos/:owner/:repo/issues/:index/assets')
@Access({ scope: 'issue' })
export class RepoIssueAttachmentsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly proxy: AttachmentProxy,
  ) {}

  @Get()
  list(@CurrentActor() actor: Actor | null, @Param() params: IssueParams): Promise<Attachment[]> {
    return this.rpc.call(AttachmentPatterns.listForIssue, { actor, params });
  }

  /** Multipart field `attachment`, optional `?name=`; 201 with the Attachment. */
  @Post()
  upload(@CurrentActor() actor: Actor | null, @Param() p: IssueParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.proxy.forward(request, reply, actor, `/repos/${seg(p.owner)}/${seg(p.repo)}/issues/${seg(p.index)}/assets`);
  }

  @Get(':attachment_id')
  get(@CurrentActor() actor: Actor | null, @Param() params: AttachmentParams): Promise<Attachment> {
    return this.rpc.call(AttachmentPatterns.getForIssue, { actor, params });
  }

  /** Gitea answers an edit with 201. */
  @Patch(':attachment_id')
  @HttpCode(201)
  edit(@CurrentActor() actor: Actor | null, @Param() params: AttachmentParams, @Body() body: EditAttachmentOptions): Promise<Attachment> {
    return this.rpc.call(AttachmentPatterns.editForIssue, { actor, params, body });
  }

  @Delete(':attachment_id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: AttachmentParams): Promise<void> {
    await this.rpc.call(AttachmentPatterns.deleteForIssue, { actor, params });
  }
}

type CommentParams = { owner: string; repo: string; id: string };
type CommentAttachmentParams = CommentParams & { attachment_id: string };

/**
 * `/repos/{owner}/{repo}/issues/comments/{id}/assets…` (token scope `issue`); the same routes
 * for one comment's files.
 */
@Controller('api/v1/repos/:owner/:repo/issues/comments/:id/assets')
@Access({ scope: 'issue' })
export class RepoCommentAttachmentsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly proxy: AttachmentProxy,
  ) {}

  @Get()
  list(@CurrentActor() actor: Actor | null, @Param() params: CommentParams): Promise<Attachment[]> {
    return this.rpc.call(AttachmentPatterns.listForComment, { actor, params });
  }

  /** Multipart field `attachment`, optional `?name=`; 201 with the Attachment. */
  @Post()
  upload(@CurrentActor() actor: Actor | null, @Param() p: CommentParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.proxy.forward(request, reply, actor, `/repos/${seg(p.owner)}/${seg(p.repo)}/issues/comments/${seg(p.id)}/assets`);
  }

  @Get(':attachment_id')
  get(@CurrentActor() actor: Actor | null, @Param() params: CommentAttachmentParams): Promise<Attachment> {
    return this.rpc.call(AttachmentPatterns.getForComment, { actor, params });
  }

  /** Gitea answers an edit with 201. */
  @Patch(':attachment_id')
  @HttpCode(201)
  edit(@CurrentActor() actor: Actor | null, @Param() params: CommentAttachmentParams, @Body() body: EditAttachmentOptions): Promise<Attachment> {
    return this.rpc.call(AttachmentPatterns.editForComment, { actor, params, body });
  }

  @Delete(':attachment_id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: CommentAttachmentParams): Promise<void> {
    await this.rpc.call(AttachmentPatterns.deleteForComment, { actor, params });
  }
}

/**
 * `GET /attachments/{uuid}` at the root, as Gitea serves `browser_download_url`: a release's file
 * from repo-service, else issue-service's; each checks that the caller may read what the file is
 * attached to and streams it.
 */
@Controller('attachments')
export class AttachmentDownloadsController {
  constructor(
    private readonly proxy: AttachmentProxy,
    private readonly rpc: RpcClient,
  ) {}

  @Get(':uuid')
  async download(@CurrentActor() actor: Actor | null, @Param('uuid') uuid: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // A repo-service that cannot say (down, or older than the question) leaves the issue attachments to serve.
    const releaseFile = await this.rpc.call<boolean, Record<string, string>, { uuid: string }>(ReleasePatterns.isAsset, { actor: null, body: { uuid } }).catch(() => false);
    if (releaseFile) {
      this.proxy.forward(request, reply, actor, `/release-assets/${seg(uuid)}`, 'repo');
      return;
    }
    this.proxy.forward(request, reply, actor, `/attachments/${seg(uuid)}`);
  }
}
