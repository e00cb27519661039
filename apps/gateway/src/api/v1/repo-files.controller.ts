import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  RepoFilePatterns,
  type Actor,
  type EditorConfigDefinition,
  type IssueConfig,
  type IssueConfigValidation,
  type IssueTemplate,
  type IssueTemplates,
} from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';

/** Files of a repository's branches the API reads: `issue_templates`, `issue_config`, `editorconfig/{filepath}`. */
@Controller('api/v1/repos/:owner/:repo')
@Access({ scope: 'repository' })
export class RepoFilesController {
  constructor(private readonly rpc: RpcClient) {}

  /** Gitea warns of template files it could not use in a header, and leaves them out. */
  @Get('issue_templates')
  async issueTemplates(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssueTemplate[]> {
    const { templates, invalid } = await this.rpc.call<IssueTemplates>(RepoFilePatterns.issueTemplates, { actor, params: { owner, repo } });
    if (invalid > 0) reply.header('X-Gitea-Warning', `error occurs when parsing issue template: count=${invalid}`);
    return templates;
  }

  @Get('issue_config')
  issueConfig(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<IssueConfig> {
    return this.rpc.call(RepoFilePatterns.issueConfig, { actor, params: { owner, repo } });
  }

  @Get('issue_config/validate')
  validateIssueConfig(@CurrentActor() actor: Actor | null, @Param('owner') owner: string, @Param('repo') repo: string): Promise<IssueConfigValidation> {
    return this.rpc.call(RepoFilePatterns.validateIssueConfig, { actor, params: { owner, repo } });
  }

  @Get('editorconfig/*')
  editorconfig(
    @CurrentActor() actor: Actor | null,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') path: string,
    @Query() query: Record<string, string>,
  ): Promise<EditorConfigDefinition> {
    return this.rpc.call(RepoFilePatterns.editorconfig, { actor, params: { owner, repo, path }, query });
  }
}
