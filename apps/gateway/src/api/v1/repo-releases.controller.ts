import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CreateReleaseOption,
  EditAttachmentOptions,
  EditReleaseOption,
  ReleasePatterns,
  type Actor,
  type Attachment,
  type Page,
  type Release,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { AttachmentProxy } from '../../http/attachment-proxy.js';
import { Paginated } from '../../http/paginated.js';

type RepoParams = { owner: string; repo: string };
type ReleaseParams = RepoParams & { id: string };
type AssetParams = ReleaseParams & { attachment_id: string };

const seg = encodeURIComponent;

/**
 * `/repos/{owner}/{repo}/releases…` (token scope `repository`): releases and their assets in
 * repo-service; asset uploads stream to repo-service's listener as issue attachments do to
 * issue-service's.
 */
@Controller('api/v1/repos/:owner/:repo/releases')
@Access({ scope: 'repository' })
export class RepoReleasesController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly proxy: AttachmentProxy,
  ) {}

  /** `draft` and `pre-release` filter; drafts only for writers. */
  @Get()
  @Paginated()
  list(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Query() query: Record<string, string>): Promise<Page<Release>> {
    return this.rpc.call(ReleasePatterns.list, { actor, params, query });
  }

  @Post()
  @Access({ repoRight: { write: ['repo.releases'] } })
  create(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Body() body: CreateReleaseOption): Promise<Release> {
    return this.rpc.call(ReleasePatterns.create, { actor, params, body });
  }

  @Get('latest')
  latest(@CurrentActor() actor: Actor | null, @Param() params: RepoParams): Promise<Release> {
    return this.rpc.call(ReleasePatterns.latest, { actor, params });
  }

  @Get('tags/*')
  getByTag(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string, @Param('*') tag: string): Promise<Release> {
    return this.rpc.call(ReleasePatterns.getByTag, { actor, params: { owner, repo, tag } });
  }

  @Delete('tags/*')
  @HttpCode(204)
  async deleteByTag(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string, @Param('*') tag: string): Promise<void> {
    await this.rpc.call(ReleasePatterns.deleteByTag, { actor, params: { owner, repo, tag } });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor | null, @Param() params: ReleaseParams): Promise<Release> {
    return this.rpc.call(ReleasePatterns.get, { actor, params });
  }

  @Patch(':id')
  @Access({ repoRight: { write: ['repo.releases'] } })
  edit(@CurrentActor() actor: Actor | null, @Param() params: ReleaseParams, @Body() body: EditReleaseOption): Promise<Release> {
    return this.rpc.call(ReleasePatterns.edit, { actor, params, body });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: ReleaseParams): Promise<void> {
    await this.rpc.call(ReleasePatterns.delete, { actor, params });
  }

  @Get(':id/assets')
  listAssets(@CurrentActor() actor: Actor | null, @Param() params: ReleaseParams): Promise<Attachment[]> {
    return this.rpc.call(ReleasePatterns.listAssets, { actor, params });
  }

  /** Multipart field `attachment`, optional `?name=`; 201 with the Attachment. */
  @Post(':id/assets')
  @Access({ repoRight: { write: ['repo.releases'] } })
  upload(@CurrentActor() actor: Actor | null, @Param() p: ReleaseParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.proxy.forward(request, reply, actor, `/repos/${seg(p.owner)}/${seg(p.repo)}/releases/${seg(p.id)}/assets`, 'repo');
  }

  @Get(':id/assets/:attachment_id')
  getAsset(@CurrentActor() actor: Actor | null, @Param() params: AssetParams): Promise<Attachment> {
    return this.rpc.call(ReleasePatterns.getAsset, { actor, params });
  }

  /** Gitea answers an edit with 201. */
  @Patch(':id/assets/:attachment_id')
  @Access({ repoRight: { write: ['repo.releases'] } })
  @HttpCode(201)
  editAsset(@CurrentActor() actor: Actor | null, @Param() params: AssetParams, @Body() body: EditAttachmentOptions): Promise<Attachment> {
    return this.rpc.call(ReleasePatterns.editAsset, { actor, params, body });
  }

  @Delete(':id/assets/:attachment_id')
  @HttpCode(204)
  async deleteAsset(@CurrentActor() actor: Actor | null, @Param() params: AssetParams): Promise<void> {
    await this.rpc.call(ReleasePatterns.deleteAsset, { actor, params });
  }
}

/** `GET /api/v1/repos/{owner}/{repo}/archive/{ref}.{tar.gz|zip|bundle}`, streamed from repo-service. */
@Controller('api/v1/repos/:owner/:repo/archive')
@Access({ scope: 'repository' })
export class RepoArchiveController {
  constructor(private readonly proxy: AttachmentProxy) {}

  @Get('*')
  archive(@CurrentActor() actor: Actor | null, @Param() p: RepoParams & { '*': string }, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.proxy.forward(request, reply, actor, `/repos/${seg(p.owner)}/${seg(p.repo)}/archive/${seg(p['*'])}`, 'repo');
  }
}

/**
 * The web addresses the API hands out: `{owner}/{repo}/archive/{ref}.{ext}` (`tarball_url`,
 * `zipball_url`) and `{owner}/{repo}/releases/download/{tag}/{name}` (`browser_download_url`).
 */
@Controller(':owner/:repo')
export class RepoFilesWebController {
  constructor(private readonly proxy: AttachmentProxy) {}

  @Get('archive/*')
  archive(@CurrentActor() actor: Actor | null, @Param() p: RepoParams & { '*': string }, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.proxy.forward(request, reply, actor, `/repos/${seg(p.owner)}/${seg(p.repo)}/archive/${seg(p['*'])}`, 'repo');
  }

  @Get('releases/download/*')
  download(@CurrentActor() actor: Actor | null, @Param() p: RepoParams & { '*': string }, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const rest = p['*'].split('/').map(seg).join('/');
    this.proxy.forward(request, reply, actor, `/repos/${seg(p.owner)}/${seg(p.repo)}/releases/download/${rest}`, 'repo');
  }
}
