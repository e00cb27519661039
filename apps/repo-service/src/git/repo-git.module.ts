import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { CatFilePool } from './cat-file.pool.js';
import { CommitLog } from './commit-log.js';
import { CommitWriter } from './commit-writer.js';
import { GitObjects } from './git-objects.js';
import { LastCommits } from './last-commits.js';
import { ObjectWriterPool } from './object-writer.pool.js';
import { Refs } from './refs.js';

/** Reading and writing repositories' objects and refs (the pieces on top of GitService). */
@Module({
  imports: [ReposModule],
  providers: [CatFilePool, ObjectWriterPool, GitObjects, CommitLog, CommitWriter, LastCommits, Refs],
  exports: [CatFilePool, ObjectWriterPool, GitObjects, CommitLog, CommitWriter, LastCommits, Refs],
})
export class RepoGitModule {}
