import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { TransfersController } from './transfers.controller.js';
import { TransfersService } from './transfers.service.js';

@Module({
  imports: [RepoRecordsModule, AccessModule, ReposModule],
  controllers: [TransfersController],
  providers: [TransfersService],
})
export class TransfersModule {}
