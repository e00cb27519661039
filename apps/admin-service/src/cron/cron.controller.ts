import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CronPatterns,
  forbidden,
  normalizeListOptions,
  pageOf,
  type Actor,
  type Cron,
  type Page,
  type RpcRequest,
} from '@gitforge/contracts';
import { CronService } from './cron.service.js';

function requireAdmin(actor: Actor | null): void {
  if (!actor?.isAdmin) throw forbidden('user should be the site admin');
}

@Controller()
export class CronController {
  constructor(private readonly cron: CronService) {}

  /** Gitea pages the task list in memory. */
  @MessagePattern(CronPatterns.list)
  async list(
    @Payload() req: RpcRequest<Record<string, string>, undefined, Record<string, unknown>>,
  ): Promise<Page<Cron>> {
    requireAdmin(req.actor);
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
    requireAdmin(req.actor);
    await this.cron.run(req.params.task);
  }
}
