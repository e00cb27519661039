import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { CommitUsers } from '../commits/commit-users.js';
import { GitModule } from '../git/git.module.js';
import { ProtectionsModule } from '../protections/protections.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { StatusesRepository } from '../statuses/statuses.repository.js';
import { PullGit } from './pull-git.js';
import { PullMergeService } from './pull-merge.service.js';
import { PullPolicyService } from './pull-policy.service.js';
import { PullRangeService } from './pull-range.service.js';
import { PullRepos } from './pull-repos.js';
import { PullStateService } from './pull-state.service.js';
import { PullsGitController } from './pulls-git.controller.js';

/** PullGitPatterns: comparing, refs/pull/{index}/head, diffs, merges and the merge policy of pull requests. */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, PushesModule, ProtectionsModule],
  controllers: [PullsGitController],
  providers: [PullGit, PullRepos, PullStateService, PullRangeService, PullMergeService, PullPolicyService, CommitUsers, StatusesRepository],
  // merge-upstream (BranchesModule) merges a parent's branch into a fork's as a pull's update does.
  exports: [PullGit, PullMergeService],
})
export class PullsGitModule {}
