import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  BranchProtectionPatterns,
  CreateBranchProtectionOption,
  CreateTagProtectionOption,
  EditBranchProtectionOption,
  EditTagProtectionOption,
  TagProtectionPatterns,
  UpdateBranchProtectionPriories,
  type Actor,
  type BranchProtection,
  type TagProtection,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** `/repos/{owner}/{repo}/branch_protections` (Gitea: reqToken + reqAdmin; lists without pagination headers). */
@Controller('api/v1/repos/:owner/:repo/branch_protections')
@Access({ scope: 'repository', signIn: true, repoRight: 'admin' })
export class RepoBranchProtectionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<BranchProtection[]> {
    return this.rpc.call(BranchProtectionPatterns.list, { actor, params: { owner, repo } });
  }

  @Post()
  create(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateBranchProtectionOption,
  ): Promise<BranchProtection> {
    return this.rpc.call(BranchProtectionPatterns.create, { actor, params: { owner, repo }, body });
  }

  @Post('priority')
  @HttpCode(204)
  async prioritize(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: UpdateBranchProtectionPriories,
  ): Promise<void> {
    await this.rpc.call(BranchProtectionPatterns.prioritize, { actor, params: { owner, repo }, body });
  }

  @Get(':name')
  get(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('name') name: string,
  ): Promise<BranchProtection> {
    return this.rpc.call(BranchProtectionPatterns.get, { actor, params: { owner, repo, name } });
  }

  @Patch(':name')
  edit(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('name') name: string,
    @Body() body: EditBranchProtectionOption,
  ): Promise<BranchProtection> {
    return this.rpc.call(BranchProtectionPatterns.edit, { actor, params: { owner, repo, name }, body });
  }

  @Delete(':name')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('name') name: string,
  ): Promise<void> {
    await this.rpc.call(BranchProtectionPatterns.delete, { actor, params: { owner, repo, name } });
  }
}

/** `/repos/{owner}/{repo}/tag_protections` (Gitea: reqToken + reqAdmin; lists without pagination headers). */
@Controller('api/v1/repos/:owner/:repo/tag_protections')
@Access({ scope: 'repository', signIn: true, repoRight: 'admin' })
export class RepoTagProtectionsController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  list(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ): Promise<TagProtection[]> {
    return this.rpc.call(TagProtectionPatterns.list, { actor, params: { owner, repo } });
  }

  @Post()
  create(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: CreateTagProtectionOption,
  ): Promise<TagProtection> {
    return this.rpc.call(TagProtectionPatterns.create, { actor, params: { owner, repo }, body });
  }

  @Get(':id')
  get(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ): Promise<TagProtection> {
    return this.rpc.call(TagProtectionPatterns.get, { actor, params: { owner, repo, id } });
  }

  @Patch(':id')
  edit(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Body() body: EditTagProtectionOption,
  ): Promise<TagProtection> {
    return this.rpc.call(TagProtectionPatterns.edit, { actor, params: { owner, repo, id }, body });
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @CurrentActor() actor: Actor,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ): Promise<void> {
    await this.rpc.call(TagProtectionPatterns.delete, { actor, params: { owner, repo, id } });
  }
}
