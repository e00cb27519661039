import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RepoLicensePatterns, type RpcRequest } from '@gitforge/contracts';
import { LicensesService } from './licenses.service.js';

@Controller()
export class LicensesController {
  constructor(private readonly licenses: LicensesService) {}

  @MessagePattern(RepoLicensePatterns.get)
  get(@Payload() req: RpcRequest<{ owner: string; repo: string }>): Promise<string[]> {
    return this.licenses.get(req.actor, req.params.owner, req.params.repo);
  }
}
