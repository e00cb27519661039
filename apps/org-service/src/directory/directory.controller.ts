import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DirectoryPatterns, type AccountRef, type RpcRequest, type TeamRef } from '@gitforge/contracts';
import { DirectoryService } from './directory.service.js';

type Body<B> = RpcRequest<Record<string, string>, B>;

@Controller()
export class DirectoryController {
  constructor(private readonly directory: DirectoryService) {}

  @MessagePattern(DirectoryPatterns.accountsByNames)
  accountsByNames(@Payload() req: Body<{ names: string[] }>): Promise<AccountRef[]> {
    return this.directory.accountsByNames(req.actor, req.body.names);
  }

  @MessagePattern(DirectoryPatterns.accountsByIds)
  accountsByIds(@Payload() req: Body<{ ids: number[] }>): Promise<AccountRef[]> {
    return this.directory.accountsByIds(req.actor, req.body.ids);
  }

  @MessagePattern(DirectoryPatterns.renamedAccount)
  renamedAccount(@Payload() req: Body<{ name: string }>): Promise<AccountRef | null> {
    return this.directory.renamedAccount(req.actor, req.body.name);
  }

  @MessagePattern(DirectoryPatterns.usersByEmails)
  usersByEmails(@Payload() req: Body<{ emails: string[] }>): Promise<AccountRef[]> {
    return this.directory.usersByEmails(req.actor, req.body.emails);
  }

  @MessagePattern(DirectoryPatterns.teams)
  teams(@Payload() req: Body<{ orgId: number; names?: string[]; ids?: number[]; withOrganization?: boolean }>): Promise<TeamRef[]> {
    return this.directory.teams(req.body.orgId, req.body);
  }

  @MessagePattern(DirectoryPatterns.teamIdsOfUser)
  teamIdsOfUser(@Payload() req: Body<{ orgId: number; userId: number }>): Promise<number[]> {
    return this.directory.teamIdsOfUser(req.body.orgId, req.body.userId);
  }

  @MessagePattern(DirectoryPatterns.teamMemberIdsOfRepo)
  teamMemberIdsOfRepo(@Payload() req: Body<{ orgId: number; repoId: number }>): Promise<number[]> {
    return this.directory.teamMemberIdsOfRepo(req.body.orgId, req.body.repoId);
  }

  @MessagePattern(DirectoryPatterns.repoCreators)
  repoCreators(@Payload() req: Body<{ orgId: number }>): Promise<number[]> {
    return this.directory.repoCreatorIds(req.body.orgId);
  }
}
