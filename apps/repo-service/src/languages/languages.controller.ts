import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RepoLanguagePatterns, type LanguageStatistics, type RpcRequest } from '@gitforge/contracts';
import { LanguagesService } from './languages.service.js';

@Controller()
export class LanguagesController {
  constructor(private readonly languages: LanguagesService) {}

  @MessagePattern(RepoLanguagePatterns.languages)
  get(@Payload() req: RpcRequest<{ owner: string; repo: string }>): Promise<LanguageStatistics> {
    return this.languages.get(req.actor, req.params.owner, req.params.repo);
  }
}
