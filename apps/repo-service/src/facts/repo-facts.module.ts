import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { HookCommitReader } from './hook-commit.reader.js';
import { RepoFactsController } from './repo-facts.controller.js';
import { RepoFactsService } from './repo-facts.service.js';

/** Repository facts for other services (webhooks, feeds, issues): access checks, commits, and the issue counters issue-service sends. */
@Module({
  imports: [ReposModule],
  controllers: [RepoFactsController],
  providers: [RepoFactsService, HookCommitReader],
  exports: [RepoFactsService],
})
export class RepoFactsModule {}
