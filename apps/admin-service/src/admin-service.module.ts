import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { AdminServiceConfig } from './admin.config.js';
import { CronModule } from './cron/cron.module.js';
import { AdminServiceEntities, AdminServiceMigrations } from './entities.js';
import { HooksModule } from './hooks/hooks.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'admin', config: AdminServiceConfig, entities: AdminServiceEntities, migrations: AdminServiceMigrations }),
    HooksModule,
    CronModule,
  ],
})
export class AdminServiceModule {}
