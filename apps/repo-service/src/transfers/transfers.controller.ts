import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { RepoTransferPatterns, type Repository, type RepoTransferStarted, type RpcRequest, type TransferRepoOption } from '@gitforge/contracts';
import { TransfersService } from './transfers.service.js';

type RepoParams = { owner: string; repo: string };

@Controller()
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  @MessagePattern(RepoTransferPatterns.start)
  start(@Payload() req: RpcRequest<RepoParams, TransferRepoOption>): Promise<RepoTransferStarted> {
    return this.transfers.start(req.actor, req.params.owner, req.params.repo, req.body);
  }

  @MessagePattern(RepoTransferPatterns.accept)
  accept(@Payload() req: RpcRequest<RepoParams>): Promise<Repository> {
    return this.transfers.accept(req.actor, req.params.owner, req.params.repo);
  }

  @MessagePattern(RepoTransferPatterns.reject)
  reject(@Payload() req: RpcRequest<RepoParams>): Promise<Repository> {
    return this.transfers.reject(req.actor, req.params.owner, req.params.repo);
  }
}
