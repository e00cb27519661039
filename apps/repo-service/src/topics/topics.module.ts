import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { TopicsController } from './topics.controller.js';
import { TopicsRepository } from './topics.repository.js';
import { TopicsService } from './topics.service.js';

/** Repository topics (what `GET /repos/search?topic=true` matches). */
@Module({
  imports: [ReposModule],
  controllers: [TopicsController],
  providers: [TopicsService, TopicsRepository],
})
export class TopicsModule {}
