import { Module } from '@nestjs/common';
import { ReposRepository } from './repos.repository.js';
import { TransfersRepository } from './transfers.repository.js';

/**
 * The repository rows (where a repository is, and where an old name of it leads): the lowest of
 * repo-service's modules, so access checks can read them without reaching up into repos/.
 */
@Module({
  providers: [ReposRepository, TransfersRepository],
  exports: [ReposRepository, TransfersRepository],
})
export class RepoRecordsModule {}
