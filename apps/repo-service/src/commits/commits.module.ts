import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { CommitUsers } from './commit-users.js';
import { CommitsController } from './commits.controller.js';
import { CommitsService } from './commits.service.js';

@Module({
  imports: [ReposModule, RepoGitModule],
  controllers: [CommitsController],
  providers: [CommitsService, CommitUsers],
})
export class CommitsModule {}
