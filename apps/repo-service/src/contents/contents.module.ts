import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { LfsModule } from '../lfs/lfs.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { ContentsController } from './contents.controller.js';
import { ContentsService } from './contents.service.js';
import { LfsStore } from './lfs.js';

/** Reading a repository's tree: contents, contents-ext, raw, media, git blobs and trees. */
@Module({
  imports: [ReposModule, RepoGitModule, LfsModule],
  controllers: [ContentsController],
  providers: [ContentsService, LfsStore],
  exports: [ContentsService],
})
export class ContentsModule {}
