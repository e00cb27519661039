import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { DependenciesController } from './dependencies.controller.js';
import { DependenciesService } from './dependencies.service.js';

@Module({
  imports: [IssuesModule],
  controllers: [DependenciesController],
  providers: [DependenciesService],
})
export class DependenciesModule {}
