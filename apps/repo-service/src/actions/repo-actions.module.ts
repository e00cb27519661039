import { Module } from '@nestjs/common';
import { GitModule } from '../git/git.module.js';
import { RepoActionsController } from './repo-actions.controller.js';
import { WorkflowFilesReader } from './workflow-files.reader.js';

/** Git reads for actions-service (workflow files at a pushed commit). */
@Module({
  imports: [GitModule],
  controllers: [RepoActionsController],
  providers: [WorkflowFilesReader],
})
export class RepoActionsModule {}
