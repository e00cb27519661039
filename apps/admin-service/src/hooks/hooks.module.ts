import { Module } from '@nestjs/common';
import { DirectoryClient } from '@gitforge/platform';
import { HooksController } from './hooks.controller.js';
import { HooksRepository } from './hooks.repository.js';
import { HooksService } from './hooks.service.js';

/** Webhook configuration: repository, organization, user, system and default hooks. */
@Module({
  controllers: [HooksController],
  providers: [HooksRepository, HooksService, DirectoryClient],
})
export class HooksModule {}
