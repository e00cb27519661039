import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, UnadoptedPatterns, type Page, type RpcRequest } from '@gitforge/contracts';
import { ReposService } from '../repos/repos.service.js';
import { UnadoptedService } from './unadopted.service.js';

type UnadoptedParams = { owner: string; repo: string };

/** Gitea reads the filter from `query`; its swagger names it `pattern`, which clients generated from it send. */
function filterOf(query: Record<string, unknown>): string {
  const value = query.query ?? query.pattern;
  return typeof value === 'string' ? value : '';
}

@Controller()
export class UnadoptedController {
  constructor(
    private readonly unadopted: UnadoptedService,
    private readonly repos: ReposService,
  ) {}

  @MessagePattern(UnadoptedPatterns.list)
  list(@Payload() req: RpcRequest): Promise<Page<string>> {
    const query = req.query ?? {};
    return this.unadopted.list(req.actor, filterOf(query), normalizeListOptions(query));
  }

  @MessagePattern(UnadoptedPatterns.adopt)
  adopt(@Payload() req: RpcRequest<UnadoptedParams>): Promise<void> {
    return this.repos.adopt(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(UnadoptedPatterns.delete)
  delete(@Payload() req: RpcRequest<UnadoptedParams>): Promise<void> {
    return this.unadopted.remove(req.actor, req.params.owner, req.params.repo);
  }
}
