import { Body, Controller, Get, NotFoundException, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CommitPatterns,
  CommitStatusPatterns,
  CreateStatusOption,
  type Actor,
  type CombinedStatus,
  type Commit,
  type CommitStatus,
  type Compare,
  type Note,
  type Page,
  type RawText,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';
import { Paged } from '../../http/paged.js';

type QueryParams = Record<string, string>;

function sendText(reply: FastifyReply, raw: RawText): string {
  void reply.type('text/plain; charset=utf-8');
  return raw.text;
}

/** `/repos/{owner}/{repo}/commits`, `git/commits`, `statuses`, `compare`. */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoCommitsController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly paged: Paged,
  ) {}

  /** Gitea adds its legacy paging headers to commit listings. */
  @Get('commits')
  async list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: QueryParams,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Commit[]> {
    const page = await this.rpc.call<Page<Commit>>(CommitPatterns.list, {
      actor,
      params: { owner, repo },
      query,
    });
    return this.paged.send(req, reply, page, { pageCounts: { total: true } });
  }

  /**
   * `commits/{ref}/status`, `commits/{ref}/statuses` (refs may contain slashes), and the
   * GitHub-style `commits/{sha}` and `commits/{sha}.diff|.patch`.
   */
  @Get('commits/*')
  async byRef(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') rest: string,
    @Query() query: QueryParams,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CombinedStatus | CommitStatus[] | Commit | string> {
    const status = /^(.+)\/(status|statuses)$/.exec(rest);
    if (status) {
      const params = { owner, repo, ref: status[1]! };
      if (status[2] === 'statuses') {
        return this.paged.send(
          req,
          reply,
          await this.rpc.call<Page<CommitStatus>>(CommitStatusPatterns.listByRef, { actor, params, query }),
        );
      }
      const page = await this.rpc.call<Page<CombinedStatus>>(CommitStatusPatterns.combined, {
        actor,
        params,
        query,
      });
      // Gitea counts the statuses in X-Total-Count and links their pages (GetCombinedCommitStatusByRef).
      return this.paged.send(req, reply, page)[0]!;
    }
    if (rest.includes('/')) throw new NotFoundException();
    return this.commit(actor, owner, repo, rest, query, reply);
  }

  /**
   * Gitea's `git/commits/{sha}.{diffType}`. The suffix is matched as `diff` or `patch` only, so
   * a ref with another dot in it (`v1.0`) still reaches `git/commits/{sha}`.
   */
  @Get('git/commits/:sha.:diffType(^diff$|^patch$)')
  async gitCommitRaw(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Param('diffType') diffType: 'diff' | 'patch',
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return sendText(reply, await this.rpc.call<RawText>(CommitPatterns.raw, { actor, params: { owner, repo, sha, type: diffType } }));
  }

  @Get('git/commits/:sha')
  gitCommit(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Commit | string> {
    return this.commit(actor, owner, repo, sha, query, reply);
  }

  private async commit(
    actor: Actor | null,
    owner: string,
    repo: string,
    sha: string,
    query: QueryParams,
    reply: FastifyReply,
  ): Promise<Commit | string> {
    const raw = /^(.+)\.(diff|patch)$/.exec(sha);
    if (raw) {
      return sendText(
        reply,
        await this.rpc.call<RawText>(CommitPatterns.raw, {
          actor,
          params: { owner, repo, sha: raw[1]!, type: raw[2]! },
        }),
      );
    }
    return this.rpc.call<Commit>(CommitPatterns.get, { actor, params: { owner, repo, sha }, query });
  }

  @Get('git/notes/:sha')
  note(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Query() query: QueryParams,
  ): Promise<Note> {
    return this.rpc.call<Note>(CommitPatterns.note, { actor, params: { owner, repo, sha }, query });
  }

  @Get('compare/*')
  async compare(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') basehead: string,
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Compare | string> {
    const res = await this.rpc.call<Compare | RawText>(CommitPatterns.compare, {
      actor,
      params: { owner, repo, basehead },
      query,
    });
    return 'text' in res ? sendText(reply, res) : res;
  }

  @Get('statuses/:sha')
  @Paginated()
  statuses(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Query() query: QueryParams,
  ): Promise<Page<CommitStatus>> {
    return this.rpc.call<Page<CommitStatus>>(CommitStatusPatterns.list, {
      actor,
      params: { owner, repo, sha },
      query,
    });
  }

  @Post('statuses/:sha')
  @Access({ repoRight: { write: ['repo.code'] } })
  createStatus(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Body() body: CreateStatusOption,
  ): Promise<CommitStatus> {
    return this.rpc.call(CommitStatusPatterns.create, { actor, params: { owner, repo, sha }, body });
  }
}
