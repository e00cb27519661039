import { Module } from '@nestjs/common';
import { CommitUsers } from '../commits/commit-users.js';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { RefUpdates } from './ref-updates.service.js';

/** What a branch update written through the API leaves behind: the repository row and push events. */
@Module({
  imports: [ReposModule, RepoGitModule],
  providers: [RefUpdates, CommitUsers],
  exports: [RefUpdates],
})
export class PushesModule {}
