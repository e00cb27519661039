import { Module } from '@nestjs/common';
import { ReposModule } from '../repos/repos.module.js';
import { DeployKeysController } from './deploy-keys.controller.js';
import { DeployKeysRepository } from './deploy-keys.repository.js';
import { DeployKeysService } from './deploy-keys.service.js';

/** Deploy keys (`/repos/{owner}/{repo}/keys`). */
@Module({
  imports: [ReposModule],
  controllers: [DeployKeysController],
  providers: [DeployKeysRepository, DeployKeysService],
  exports: [DeployKeysRepository],
})
export class DeployKeysModule {}
