import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { CommitUsers } from '../commits/commit-users.js';
import { GitModule } from '../git/git.module.js';
import { PullsGitModule } from '../pulls/pulls-git.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { BranchPolicyModule } from './branch-policy.js';
import { BranchesController } from './branches.controller.js';
import { BranchesService } from './branches.service.js';

@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, PushesModule, BranchPolicyModule, PullsGitModule],
  controllers: [BranchesController],
  providers: [BranchesService, CommitUsers],
})
export class BranchesModule {}
