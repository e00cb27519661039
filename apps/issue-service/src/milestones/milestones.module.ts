import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { MilestonesController } from './milestones.controller.js';
import { MilestonesService } from './milestones.service.js';

/** Repository milestones. */
@Module({
  imports: [IssuesModule],
  controllers: [MilestonesController],
  providers: [MilestonesService],
})
export class MilestonesModule {}
