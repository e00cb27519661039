import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ChangeFilesOptions,
  CreateFileOptions,
  DeleteFileOptions,
  GetFilesOptions,
  RepoContentPatterns,
  UpdateFileOptions,
  type Actor,
  type ContentsExtResponse,
  type ContentsResponse,
  type FileDeleteResponse,
  type FileResponse,
  type FilesResponse,
  type GitBlobResponse,
  type GitTreeResponse,
  type RawFile,
} from '@gitforge/contracts';
import { createValidationPipe, InvalidInput, normalizeJsonBody, RpcClient, sendTotalCount } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { sendRawFile } from '../../http/raw-reply.js';

type QueryParams = Record<string, string>;

/**
 * `/repos/{owner}/{repo}/contents`, `contents-ext`, `raw`, `media`, `git/blobs`, `git/trees`.
 * Writes do not require sign-in here: as in Gitea, a hidden repository answers 404 and an
 * archived one 423 before the missing credentials' 401, so repo-service checks in that order.
 */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoContentsController {
  private readonly validation = createValidationPipe();

  constructor(private readonly rpc: RpcClient) {}

  @Get('contents')
  list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: QueryParams,
  ) {
    return this.rpc.call<ContentsResponse[]>(RepoContentPatterns.get, {
      actor,
      params: { owner, repo, filepath: '' },
      query,
    });
  }

  @Get('contents/*')
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Query() query: QueryParams,
  ) {
    return this.rpc.call<ContentsResponse | ContentsResponse[]>(RepoContentPatterns.get, {
      actor,
      params: { owner, repo, filepath },
      query,
    });
  }

  @Get('contents-ext')
  extRoot(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: QueryParams,
  ) {
    return this.rpc.call<ContentsExtResponse>(RepoContentPatterns.getExt, {
      actor,
      params: { owner, repo, filepath: '' },
      query,
    });
  }

  @Get('contents-ext/*')
  ext(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Query() query: QueryParams,
  ) {
    return this.rpc.call<ContentsExtResponse>(RepoContentPatterns.getExt, {
      actor,
      params: { owner, repo, filepath },
      query,
    });
  }

  /** Gitea reads the request as JSON from the `body` query parameter (400 when it is not JSON). */
  @Get('file-contents')
  async filesByQuery(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: QueryParams,
  ): Promise<Array<ContentsResponse | null>> {
    let parsed: unknown;
    try {
      // The same decoding as every JSON body (bootstrap's parser): nulls unset, nesting limited.
      parsed = normalizeJsonBody(JSON.parse(query.body ?? ''));
    } catch {
      // Gitea's answer, after the repository's 404 for those who cannot see it (InvalidInputFilter).
      throw new InvalidInput('invalid body parameter', 'invalid_argument');
    }
    const body = (await this.validation.transform(parsed, { type: 'body', metatype: GetFilesOptions })) as GetFilesOptions;
    return this.files(actor, owner, repo, query, body);
  }

  @Post('file-contents')
  @HttpCode(200)
  @Access({ readOnly: true })
  files(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: QueryParams,
    @Body() body: GetFilesOptions,
  ): Promise<Array<ContentsResponse | null>> {
    return this.rpc.call(RepoContentPatterns.getFiles, { actor, params: { owner, repo }, query: { ref: query.ref ?? '' }, body });
  }

  @Post('contents')
  changeFiles(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: ChangeFilesOptions,
  ): Promise<FilesResponse> {
    return this.rpc.call(RepoContentPatterns.changeFiles, { actor, params: { owner, repo }, body });
  }

  @Post('contents/*')
  create(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Body() body: CreateFileOptions,
  ): Promise<FileResponse> {
    return this.rpc.call(RepoContentPatterns.createFile, { actor, params: { owner, repo, filepath }, body });
  }

  /** Gitea answers 201 when the PUT created the file (no `sha`), 200 when it replaced one. */
  @Put('contents/*')
  async update(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Body() body: UpdateFileOptions,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FileResponse> {
    const res: FileResponse = await this.rpc.call(RepoContentPatterns.updateFile, {
      actor,
      params: { owner, repo, filepath },
      body,
    });
    void reply.status(body.sha ? 200 : 201);
    return res;
  }

  @Delete('contents/*')
  delete(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Body() body: DeleteFileOptions,
  ): Promise<FileDeleteResponse> {
    return this.rpc.call(RepoContentPatterns.deleteFile, { actor, params: { owner, repo, filepath }, body });
  }

  @Get('raw/*')
  async raw(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Query() query: QueryParams,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | undefined> {
    return sendRawFile(
      req,
      reply,
      await this.rpc.call<RawFile>(RepoContentPatterns.raw, {
        actor,
        params: { owner, repo, filepath },
        query,
      }),
    );
  }

  @Get('media/*')
  async media(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') filepath: string,
    @Query() query: QueryParams,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | undefined> {
    return sendRawFile(
      req,
      reply,
      await this.rpc.call<RawFile>(RepoContentPatterns.media, {
        actor,
        params: { owner, repo, filepath },
        query,
      }),
    );
  }

  @Get('git/blobs/:sha')
  blob(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
  ) {
    return this.rpc.call<GitBlobResponse>(RepoContentPatterns.blob, { actor, params: { owner, repo, sha } });
  }

  @Get('git/trees/:sha')
  async tree(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const tree = await this.rpc.call<GitTreeResponse>(RepoContentPatterns.tree, {
      actor,
      params: { owner, repo, sha },
      query,
    });
    // Gitea counts the tree's entries in X-Total-Count too.
    sendTotalCount(reply, tree.total_count);
    return tree;
  }
}
