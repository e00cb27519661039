import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { StarsController } from './stars.controller.js';
import { StarsService } from './stars.service.js';

/** Stars: `/user/starred`, `/users/{username}/starred`, `/repos/{owner}/{repo}/stargazers`. */
@Module({
  imports: [AccessModule, ReposModule],
  controllers: [StarsController],
  providers: [StarsService],
})
export class StarsModule {}
