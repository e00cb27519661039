import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { TopicsController } from './topics.controller.js';
import { TopicsRepository } from './topics.repository.js';
import { TopicsService } from './topics.service.js';

/** Repository topics (what `GET /repos/search?topic=true` matches). */
@Module({
  imports: [RepoRecordsModule, AccessModule],
  controllers: [TopicsController],
  providers: [TopicsService, TopicsRepository],
})
export class TopicsModule {}
