import { Module } from '@nestjs/common';
import { CommitUsers } from '../commits/commit-users.js';
import { RepoGitModule } from '../git/repo-git.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { BranchPolicyModule } from './branch-policy.js';
import { BranchesController } from './branches.controller.js';
import { BranchesService } from './branches.service.js';

@Module({
  imports: [ReposModule, RepoGitModule, PushesModule, BranchPolicyModule],
  controllers: [BranchesController],
  providers: [BranchesService, CommitUsers],
})
export class BranchesModule {}
