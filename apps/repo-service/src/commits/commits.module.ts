import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepoFactsModule } from '../facts/repo-facts.module.js';
import { GitModule } from '../git/git.module.js';
import { CommitUsers } from './commit-users.js';
import { CommitsController } from './commits.controller.js';
import { CommitsService } from './commits.service.js';

@Module({
  imports: [GitModule, AccessModule, RepoFactsModule],
  controllers: [CommitsController],
  providers: [CommitsService, CommitUsers],
})
export class CommitsModule {}
