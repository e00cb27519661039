import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { ProtectionsModule } from '../protections/protections.module.js';
import { PushesModule } from '../pushes/pushes.module.js';
import { TagsController } from './tags.controller.js';
import { TagsService } from './tags.service.js';

/** Tags and git references through the API. */
@Module({
  imports: [GitModule, AccessModule, PushesModule, ProtectionsModule],
  controllers: [TagsController],
  providers: [TagsService],
  exports: [TagsService],
})
export class TagsModule {}
