import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { HookCommitReader } from './hook-commit.reader.js';
import { RepoFactsController } from './repo-facts.controller.js';
import { RepoFactsService } from './repo-facts.service.js';

/** Repository facts for other services (webhooks, feeds, issues): access checks, commits, and the issue counters issue-service sends. */
@Module({
  imports: [RepoRecordsModule, GitModule, AccessModule, ReposModule],
  controllers: [RepoFactsController],
  providers: [RepoFactsService, HookCommitReader],
  exports: [RepoFactsService],
})
export class RepoFactsModule {}
