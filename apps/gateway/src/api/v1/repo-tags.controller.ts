import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  CreateTagOption,
  GitRefPatterns,
  TagPatterns,
  type Actor,
  type AnnotatedTag,
  type Page,
  type Reference,
  type Tag,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/repos/{owner}/{repo}/tags` (names may contain slashes), `git/tags/{sha}` and `git/refs`. */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoTagsController {
  constructor(private readonly rpc: RpcClient) {}

  /** Gitea counts the tags in X-Total-Count and sends no Link. */
  @Get('tags')
  @Paginated({ link: false })
  list(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ): Promise<Page<Tag>> {
    return this.rpc.call<Page<Tag>>(TagPatterns.list, { actor, params: { owner, repo }, query });
  }

  @Get('tags/*')
  get(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') tag: string,
  ): Promise<Tag> {
    return this.rpc.call(TagPatterns.get, { actor, params: { owner, repo, tag } });
  }

  @Post('tags')
  @Access({ repoRight: { write: ['repo.code'], unarchived: true } })
  create(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateTagOption,
  ): Promise<Tag> {
    return this.rpc.call(TagPatterns.create, { actor, params: { owner, repo }, body });
  }

  @Delete('tags/*')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') tag: string,
  ): Promise<void> {
    await this.rpc.call(TagPatterns.delete, { actor, params: { owner, repo, tag } });
  }

  @Get('git/tags/:sha')
  annotated(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
  ): Promise<AnnotatedTag> {
    return this.rpc.call(TagPatterns.annotated, { actor, params: { owner, repo, sha } });
  }

  @Get('git/refs')
  allRefs(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<Reference[]> {
    return this.rpc.call(GitRefPatterns.list, { actor, params: { owner, repo, prefix: '' } });
  }

  @Get('git/refs/*')
  refs(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') prefix: string,
  ): Promise<Reference[]> {
    return this.rpc.call(GitRefPatterns.list, { actor, params: { owner, repo, prefix } });
  }
}
