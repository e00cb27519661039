import { Module } from '@nestjs/common';
import { DirectoryController } from './directory.controller.js';
import { DirectoryRepository } from './directory.repository.js';
import { DirectoryService } from './directory.service.js';

/** Account and team lookups other services ask for (collaborators, protections, push payloads). */
@Module({
  controllers: [DirectoryController],
  providers: [DirectoryRepository, DirectoryService],
})
export class DirectoryModule {}
