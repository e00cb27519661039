import { Module } from '@nestjs/common';
import { DirectoryController } from './directory.controller.js';
import { DirectoryRepository } from './directory.repository.js';
import { DirectoryService } from './directory.service.js';
import { UsersRepository } from '../users/users.repository.js';

/** Account and team lookups other services ask for (collaborators, protections, push payloads). */
@Module({
  controllers: [DirectoryController],
  providers: [DirectoryRepository, DirectoryService, UsersRepository],
})
export class DirectoryModule {}
