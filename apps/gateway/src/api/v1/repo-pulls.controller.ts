import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  CreatePullRequestOption,
  EditPullRequestOption,
  IssuePatterns,
  MergePullRequestOption,
  PullPatterns,
  type Actor,
  type ChangedFile,
  type Commit,
  type Issue,
  type Page,
  type PullRequest,
  type RawText,
} from '@gitforge/contracts';
import { createValidationPipe, RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

type QueryParams = Record<string, string>;
type RepoParams = { owner: string; repo: string };

/** The fields of Gitea's MergePullRequestForm; Go's JSON decoding matches their names in any case. */
const MERGE_FIELDS = [
  'Do',
  'MergeTitleField',
  'MergeMessageField',
  'MergeCommitID',
  'head_commit_id',
  'force_merge',
  'merge_when_checks_succeed',
  'delete_branch_after_merge',
] as const;
const MERGE_FIELD_BY_LOWER = new Map<string, string>(MERGE_FIELDS.map((f) => [f.toLowerCase(), f]));
/** The form's documented snake_case names, which Gitea reads first, falling back to the old ones when empty. */
const SNAKE_ALIASES = new Map<string, string>([
  ['merge_title_field', 'MergeTitleField'],
  ['merge_message_field', 'MergeMessageField'],
  ['merge_commit_id', 'MergeCommitID'],
]);

/** A merge form with its keys as Gitea's decoder reads them (`do`, `mergetitlefield`, `merge_title_field`, …). */
export function mergeFormKeys(raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  const snake: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const lower = key.toLowerCase();
    const alias = SNAKE_ALIASES.get(lower);
    if (alias) {
      if (!(alias in snake)) snake[alias] = value;
      continue;
    }
    const field = MERGE_FIELD_BY_LOWER.get(lower);
    if (field && !(field in out)) out[field] = value;
  }
  for (const [field, value] of Object.entries(snake)) if (value !== '' && value !== null && value !== undefined) out[field] = value;
  return out;
}

/** `/repos/{owner}/{repo}/pulls…` (Gitea's pull routes: token scope `repository`). */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoPullsController {
  private readonly validation = createValidationPipe();

  constructor(private readonly rpc: RpcClient) {}

  @Get('pulls')
  @Paginated()
  list(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Query() query: QueryParams): Promise<Page<PullRequest>> {
    return this.rpc.call(PullPatterns.list, { actor, params, query });
  }

  @Post('pulls')
  create(@CurrentActor() actor: Actor | null, @Param() params: RepoParams, @Body() body: CreatePullRequestOption): Promise<PullRequest> {
    return this.rpc.call(PullPatterns.create, { actor, params, body });
  }

  @Get('pulls/pinned')
  pinned(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<Issue[]> {
    return this.rpc.call(IssuePatterns.listPinned, { actor, params: { owner, repo, kind: 'pulls' } });
  }

  /** `pulls/{index}` and `pulls/{index}.diff|.patch`. */
  @Get('pulls/:index')
  async get(
    @CurrentActor() actor: Actor | null,
    @Param() params: RepoParams & { index: string },
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PullRequest | string> {
    const raw = /^(.+)\.(diff|patch)$/.exec(params.index);
    if (!raw) return this.rpc.call(PullPatterns.get, { actor, params });
    const text = await this.rpc.call<RawText>(PullPatterns.raw, { actor, params: { ...params, index: raw[1]!, diffType: raw[2]! }, query });
    void reply.type('text/plain; charset=utf-8');
    return text.text;
  }

  /** `pulls/{base}/{head}`: the head may hold slashes (`owner/repo:branch`, `feature/x`). */
  @Get('pulls/:index/*')
  getByBaseHead(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string; '*': string }): Promise<PullRequest> {
    // The same path segment as the index routes (their fixed names win): here it is the base branch.
    return this.rpc.call(PullPatterns.getByBaseHead, { actor, params: { owner: params.owner, repo: params.repo, base: params.index, head: params['*'] } });
  }

  /** Gitea answers an edit with 201. */
  @Patch('pulls/:index')
  @HttpCode(201)
  edit(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }, @Body() body: EditPullRequestOption): Promise<PullRequest> {
    return this.rpc.call(PullPatterns.edit, { actor, params, body });
  }

  @Get('pulls/:index/files')
  @Paginated({ pageCounts: { total: false } })
  files(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }, @Query() query: QueryParams): Promise<Page<ChangedFile>> {
    return this.rpc.call(PullPatterns.files, { actor, params, query });
  }

  @Get('pulls/:index/commits')
  @Paginated({ pageCounts: { total: false } })
  commits(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }, @Query() query: QueryParams): Promise<Page<Commit>> {
    return this.rpc.call(PullPatterns.commits, { actor, params, query });
  }

  @Get('pulls/:index/merge')
  @HttpCode(204)
  async isMerged(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }): Promise<void> {
    await this.rpc.call(PullPatterns.isMerged, { actor, params });
  }

  /** 200 with no body when merged; 201 when scheduled to merge once the checks succeed. */
  @Post('pulls/:index/merge')
  // Validated below after Gitea's form keys are mapped, so the document is told the body's type.
  @ApiBody({ type: MergePullRequestOption })
  async merge(
    @CurrentActor() actor: Actor | null,
    @Param() params: RepoParams & { index: string },
    @Body() raw: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const body = (await this.validation.transform(mergeFormKeys(raw), { type: 'body', metatype: MergePullRequestOption })) as MergePullRequestOption;
    const outcome = await this.rpc.call<'merged' | 'scheduled', RepoParams & { index: string }, MergePullRequestOption>(PullPatterns.merge, { actor, params, body });
    void reply.status(outcome === 'scheduled' ? 201 : 200);
  }

  @Delete('pulls/:index/merge')
  @HttpCode(204)
  async cancelAutoMerge(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }): Promise<void> {
    await this.rpc.call(PullPatterns.cancelAutoMerge, { actor, params });
  }

  @Post('pulls/:index/update')
  @HttpCode(200)
  async update(@CurrentActor() actor: Actor | null, @Param() params: RepoParams & { index: string }, @Query() query: QueryParams): Promise<void> {
    await this.rpc.call(PullPatterns.update, { actor, params, query });
  }
}
