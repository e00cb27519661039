import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { WatchesController } from './watches.controller.js';
import { WatchesService } from './watches.service.js';

/** Watches: `/repos/{owner}/{repo}/subscription`, `/subscribers`, `/user/subscriptions`. */
@Module({
  imports: [AccessModule, ReposModule],
  controllers: [WatchesController],
  providers: [WatchesService],
})
export class WatchesModule {}
