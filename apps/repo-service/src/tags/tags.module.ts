import { Module } from '@nestjs/common';
import { RepoGitModule } from '../git/repo-git.module.js';
import { ProtectionsModule } from '../protections/protections.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { TagsController } from './tags.controller.js';
import { TagsService } from './tags.service.js';

/** Tags and git references through the API. */
@Module({
  imports: [ReposModule, RepoGitModule, PushesModule, ProtectionsModule],
  controllers: [TagsController],
  providers: [TagsService],
  exports: [TagsService],
})
export class TagsModule {}
