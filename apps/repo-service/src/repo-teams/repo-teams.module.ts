import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepoTeamsController } from './repo-teams.controller.js';
import { RepoTeamsService } from './repo-teams.service.js';

/** Which organization teams reach a repository (the teams live in org-service). */
@Module({
  imports: [AccessModule],
  controllers: [RepoTeamsController],
  providers: [RepoTeamsService],
})
export class RepoTeamsModule {}
