import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { RepoTeamsController } from './repo-teams.controller.js';
import { RepoTeamsService } from './repo-teams.service.js';

/** Which organization teams reach a repository (the teams live in org-service). */
@Module({
  imports: [ReposModule],
  controllers: [RepoTeamsController],
  providers: [RepoTeamsService],
})
export class RepoTeamsModule {}
