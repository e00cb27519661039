import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RepoFilePatterns,
  type EditorConfigDefinition,
  type IssueConfig,
  type IssueConfigValidation,
  type IssueTemplates,
  type RpcRequest,
} from '@gitforge/contracts';
import { RepoFilesService } from './repo-files.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class RepoFilesController {
  constructor(private readonly files: RepoFilesService) {}

  @MessagePattern(RepoFilePatterns.issueTemplates)
  issueTemplates(@Payload() req: RpcRequest<RepoParams>): Promise<IssueTemplates> {
    return this.files.issueTemplates(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoFilePatterns.issueConfig)
  issueConfig(@Payload() req: RpcRequest<RepoParams>): Promise<IssueConfig> {
    return this.files.issueConfig(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoFilePatterns.validateIssueConfig)
  validateIssueConfig(@Payload() req: RpcRequest<RepoParams>): Promise<IssueConfigValidation> {
    return this.files.validateIssueConfig(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoFilePatterns.editorconfig)
  editorconfig(@Payload() req: RpcRequest<RepoParams & { path: string }>): Promise<EditorConfigDefinition> {
    const ref = typeof req.query?.ref === 'string' ? req.query.ref : undefined;
    return this.files.editorconfig(req.actor, req.params.owner, req.params.repo, req.params.path, ref);
  }
}
