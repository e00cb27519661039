import { Module } from '@nestjs/common';
import { DirectoryClient, loadSecretKey, PlatformConfig, SecretBox } from '@gitforge/platform';
import { HookSecrets } from './hook-secrets.js';
import { HooksController } from './hooks.controller.js';
import { HooksRepository } from './hooks.repository.js';
import { HooksService } from './hooks.service.js';

/** Webhook configuration: repository, organization, user, system and default hooks. */
@Module({
  controllers: [HooksController],
  providers: [
    HooksRepository,
    HooksService,
    HookSecrets,
    DirectoryClient,
    { provide: SecretBox, inject: [PlatformConfig], useFactory: (config: PlatformConfig) => new SecretBox(loadSecretKey(config)) },
  ],
})
export class HooksModule {}
