import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { HookCommitReader } from '../facts/hook-commit.reader.js';
import { GitModule } from '../git/git.module.js';
import { StatusesController } from './statuses.controller.js';
import { StatusesRepository } from './statuses.repository.js';
import { StatusesService } from './statuses.service.js';

@Module({
  imports: [GitModule, AccessModule],
  controllers: [StatusesController],
  providers: [StatusesService, StatusesRepository, HookCommitReader],
})
export class StatusesModule {}
