import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { DeployKeysController } from './deploy-keys.controller.js';
import { DeployKeysRepository } from './deploy-keys.repository.js';
import { DeployKeysService } from './deploy-keys.service.js';

/** Deploy keys (`/repos/{owner}/{repo}/keys`). */
@Module({
  imports: [AccessModule],
  controllers: [DeployKeysController],
  providers: [DeployKeysRepository, DeployKeysService],
  exports: [DeployKeysRepository],
})
export class DeployKeysModule {}
