import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { LfsModule } from '../lfs/lfs.module.js';
import { ContentsController } from './contents.controller.js';
import { ContentsService } from './contents.service.js';
import { LfsStore } from './lfs.js';

/** Reading a repository's tree: contents, contents-ext, raw, media, git blobs and trees. */
@Module({
  imports: [GitModule, AccessModule, LfsModule],
  controllers: [ContentsController],
  providers: [ContentsService, LfsStore],
  exports: [ContentsService],
})
export class ContentsModule {}
