import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  invalid,
  RepoMaintenancePatterns,
  type RepoSweepRequest,
  type RepoSweepResult,
  type RepoSweepTask,
  type RetentionRequest,
  type RetentionResult,
  type RpcRequest,
} from '@gitforge/contracts';
import { MaintenanceService } from './maintenance.service.js';

const TASKS: ReadonlySet<string> = new Set<RepoSweepTask>(['fsck', 'stats', 'gc', 'licenses', 'reinit']);

/** For the admin cron only (the gateway routes no request here). */
@Controller()
export class MaintenanceController {
  constructor(private readonly maintenance: MaintenanceService) {}

  @MessagePattern(RepoMaintenancePatterns.sweep)
  sweep(@Payload() req: RpcRequest<Record<string, string>, RepoSweepRequest>): Promise<RepoSweepResult> {
    if (!TASKS.has(req.body?.task) || !Number.isFinite(req.body.afterId) || !Number.isFinite(req.body.limit))
      throw invalid('bad sweep request');
    return this.maintenance.sweep(req.body);
  }

  @MessagePattern(RepoMaintenancePatterns.cleanArchives)
  cleanArchives(
    @Payload() req: RpcRequest<Record<string, string>, RetentionRequest>,
  ): Promise<RetentionResult> {
    if (!Number.isFinite(req.body?.olderThanMs)) throw invalid('bad retention request');
    return this.maintenance.cleanArchives(req.body.olderThanMs);
  }
}
