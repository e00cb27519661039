import { Module } from '@nestjs/common';
import { HookCommitReader } from '../facts/hook-commit.reader.js';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { StatusesController } from './statuses.controller.js';
import { StatusesRepository } from './statuses.repository.js';
import { StatusesService } from './statuses.service.js';

@Module({
  imports: [ReposModule, RepoGitModule],
  controllers: [StatusesController],
  providers: [StatusesService, StatusesRepository, HookCommitReader],
})
export class StatusesModule {}
