import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { GitModule } from '../git/git.module.js';
import { BranchProtectionsController } from './branch-protections.controller.js';
import { BranchProtectionsService } from './branch-protections.service.js';
import { ProtectionAccess } from './protection-access.js';
import { ProtectionsRepository } from './protections.repository.js';
import { PushPolicy } from './push-policy.js';
import { TagProtectionsController } from './tag-protections.controller.js';
import { TagProtectionsService } from './tag-protections.service.js';

/**
 * Branch and tag protections: their API, and PushPolicy, the one place that decides whether a
 * ref may move (pushes over smart HTTP here; API writes such as file edits may import it too).
 */
@Module({
  imports: [GitModule, AccessModule],
  controllers: [TagProtectionsController, BranchProtectionsController],
  providers: [ProtectionsRepository, ProtectionAccess, TagProtectionsService, BranchProtectionsService, PushPolicy],
  exports: [PushPolicy, ProtectionsRepository],
})
export class ProtectionsModule {}
