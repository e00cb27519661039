import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { StatusesController } from './statuses.controller.js';
import { StatusesRepository } from './statuses.repository.js';
import { StatusesService } from './statuses.service.js';

@Module({
  imports: [ReposModule, RepoGitModule],
  controllers: [StatusesController],
  providers: [StatusesService, StatusesRepository],
})
export class StatusesModule {}
