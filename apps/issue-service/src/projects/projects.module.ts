import { Module } from '@nestjs/common';
import { IssuesModule } from '../issues/issues.module.js';
import { ProjectsController } from './projects.controller.js';
import { ProjectsService } from './projects.service.js';

/** Repository and organization projects with their board columns (ProjectsRepository comes from IssuesModule, which shows issues' projects). */
@Module({
  imports: [IssuesModule],
  controllers: [ProjectsController],
  providers: [ProjectsService],
})
export class ProjectsModule {}
