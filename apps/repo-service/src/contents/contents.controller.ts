import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RepoContentPatterns,
  type ContentsExtResponse,
  type ContentsResponse,
  type GetFilesOptions,
  type GitBlobResponse,
  type GitTreeResponse,
  type RawFile,
  type RpcRequest,
} from '@gitforge/contracts';
import { ContentsService } from './contents.service.js';

type PathParams = { owner: string; repo: string; filepath: string };
type RefQuery = { ref?: string };

@Controller()
export class ContentsController {
  constructor(private readonly contents: ContentsService) {}

  @MessagePattern(RepoContentPatterns.get)
  get(@Payload() req: RpcRequest<PathParams, undefined, RefQuery>): Promise<ContentsResponse | ContentsResponse[]> {
    return this.contents.contents(req.actor, req.params.owner, req.params.repo, req.params.filepath, req.query.ref);
  }

  @MessagePattern(RepoContentPatterns.getExt)
  getExt(@Payload() req: RpcRequest<PathParams, undefined, RefQuery & { includes?: string }>): Promise<ContentsExtResponse> {
    const { owner, repo, filepath } = req.params;
    return this.contents.contentsExt(req.actor, owner, repo, filepath, req.query.ref, req.query.includes);
  }

  @MessagePattern(RepoContentPatterns.getFiles)
  getFiles(@Payload() req: RpcRequest<{ owner: string; repo: string }, GetFilesOptions, RefQuery>): Promise<Array<ContentsResponse | null>> {
    return this.contents.files(req.actor, req.params.owner, req.params.repo, req.query.ref, req.body.files);
  }

  @MessagePattern(RepoContentPatterns.raw)
  raw(@Payload() req: RpcRequest<PathParams, undefined, RefQuery>): Promise<RawFile> {
    return this.contents.raw(req.actor, req.params.owner, req.params.repo, req.params.filepath, req.query.ref, false);
  }

  @MessagePattern(RepoContentPatterns.media)
  media(@Payload() req: RpcRequest<PathParams, undefined, RefQuery>): Promise<RawFile> {
    return this.contents.raw(req.actor, req.params.owner, req.params.repo, req.params.filepath, req.query.ref, true);
  }

  @MessagePattern(RepoContentPatterns.blob)
  blob(@Payload() req: RpcRequest<{ owner: string; repo: string; sha: string }>): Promise<GitBlobResponse> {
    return this.contents.blob(req.actor, req.params.owner, req.params.repo, req.params.sha);
  }

  @MessagePattern(RepoContentPatterns.tree)
  tree(@Payload() req: RpcRequest<{ owner: string; repo: string; sha: string }>): Promise<GitTreeResponse> {
    return this.contents.tree(req.actor, req.params.owner, req.params.repo, req.params.sha, req.query);
  }
}
