import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CronPatterns,
  normalizeListOptions,
  pageOf,
  requireSiteAdmin,
  type Cron,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { CronService } from './cron.service.js';

@Controller()
export class CronController {
  constructor(private readonly cron: CronService) {}

  /** Gitea pages the task list in memory. */
  @MessagePattern(CronPatterns.list)
  async list(
    @Payload() req: RpcRequest<Record<string, string>, undefined, Record<string, unknown>>,
  ): Promise<Page<Cron>> {
    requireSiteAdmin(req.actor);
    const options = normalizeListOptions(req.query);
    const all = await this.cron.list();
    return pageOf(
      all.slice((options.page - 1) * options.limit, options.page * options.limit),
      all.length,
      options,
    );
  }

  @MessagePattern(CronPatterns.run)
  async run(@Payload() req: RpcRequest<{ task: string }>): Promise<void> {
    requireSiteAdmin(req.actor);
    await this.cron.run(req.params.task);
  }
}
