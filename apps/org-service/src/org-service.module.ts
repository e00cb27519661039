import { Module } from '@nestjs/common';
import { PlatformModule } from '@gitforge/platform';
import { AccountsModule } from './accounts.module.js';
import { DirectoryModule } from './directory/directory.module.js';
import { OrgServiceEntities, OrgServiceMigrations } from './entities.js';
import { OrgServiceConfig } from './org.config.js';

@Module({
  imports: [
    PlatformModule.forService({
      service: 'org',
      config: OrgServiceConfig,
      entities: OrgServiceEntities,
      migrations: OrgServiceMigrations,
    }),
    AccountsModule,
    DirectoryModule,
  ],
})
export class OrgServiceModule {}
