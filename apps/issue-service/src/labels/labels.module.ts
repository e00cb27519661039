import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { IssueLabelsService } from './issue-labels.service.js';
import { LabelsController } from './labels.controller.js';
import { LabelsService } from './labels.service.js';

/** Repository and organization labels, and the labels of issues. */
@Module({
  imports: [IssuesModule],
  controllers: [LabelsController],
  providers: [LabelsService, IssueLabelsService],
  exports: [IssueLabelsService],
})
export class LabelsModule {}
