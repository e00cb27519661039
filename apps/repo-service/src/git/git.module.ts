import { Module } from '@nestjs/common';
import { CatFilePool } from './cat-file.pool.js';
import { CommitLog } from './commit-log.js';
import { CommitWriter } from './commit-writer.js';
import { GitObjects } from './git-objects.js';
import { GitService } from './git.service.js';
import { LastCommits } from './last-commits.js';
import { ObjectWriterPool } from './object-writer.pool.js';
import { Refs } from './refs.js';

/**
 * Everything that runs git: GitService and the long-lived readers, writers and caches on top of
 * it. It needs only the config, so any module may import it; one instance of each pool and cache
 * serves the whole process.
 */
@Module({
  providers: [GitService, CatFilePool, ObjectWriterPool, GitObjects, CommitLog, CommitWriter, LastCommits, Refs],
  exports: [GitService, CatFilePool, ObjectWriterPool, GitObjects, CommitLog, CommitWriter, LastCommits, Refs],
})
export class GitModule {}
