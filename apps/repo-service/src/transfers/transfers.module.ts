import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { TransfersController } from './transfers.controller.js';
import { TransfersService } from './transfers.service.js';

@Module({
  imports: [ReposModule],
  controllers: [TransfersController],
  providers: [TransfersService],
})
export class TransfersModule {}
