import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { AdminServiceEntities, AdminServiceMigrations } from './entities.js';
import { HooksModule } from './hooks/hooks.module.js';

@Module({
  imports: [
    PlatformModule.forService({ service: 'admin', entities: AdminServiceEntities, migrations: AdminServiceMigrations }),
    HooksModule,
  ],
})
export class AdminServiceModule {}
