import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { RepoActionsController } from './repo-actions.controller.js';
import { WorkflowFilesReader } from './workflow-files.reader.js';

/** Git reads for actions-service (workflow files at a pushed commit). */
@Module({
  imports: [ReposModule, RepoGitModule],
  controllers: [RepoActionsController],
  providers: [WorkflowFilesReader],
})
export class RepoActionsModule {}
