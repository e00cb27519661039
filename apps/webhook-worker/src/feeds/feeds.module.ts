import { Module } from '@nestjs/common';
import { DirectoryClient } from '@gitforge/platform';
import { ActionFeedProjector } from './action-feed.projector.js';
import { FeedsController } from './feeds.controller.js';
import { FeedsRepository } from './feeds.repository.js';
import { FeedsService } from './feeds.service.js';

/** Activity feeds: the projector writing Gitea's action rows, and the feed reads. */
@Module({
  controllers: [FeedsController],
  providers: [FeedsRepository, ActionFeedProjector, FeedsService, DirectoryClient],
})
export class FeedsModule {}
