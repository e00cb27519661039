import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { ReposModule } from '../repos/repos.module.js';
import { CollaboratorsController } from './collaborators.controller.js';
import { CollaboratorsRepository } from './collaborators.repository.js';
import { CollaboratorsService } from './collaborators.service.js';

/** Direct grants of read, write or admin on one repository; resolveRepoPermission reads them. */
@Module({
  imports: [AccessModule, ReposModule],
  controllers: [CollaboratorsController],
  providers: [CollaboratorsRepository, CollaboratorsService],
})
export class CollaboratorsModule {}
