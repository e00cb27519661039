import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { BranchPolicyModule } from '../branches/branch-policy.js';
import { ContentsModule } from '../contents/contents.module.js';
import { GitModule } from '../git/git.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { FilesController } from './files.controller.js';
import { FilesService } from './files.service.js';

/** File changes through the API: create, update, delete, several files in one commit. */
@Module({
  imports: [GitModule, AccessModule, ContentsModule, PushesModule, BranchPolicyModule],
  controllers: [FilesController],
  providers: [FilesService],
})
export class FilesModule {}
