import { openServiceTestDatabase, type ServiceTestDatabase } from '@gitforge/platform/testing';
import { ActionsServiceConfig } from '../../src/actions.config.js';
import { ActionsServiceEntities, ActionsServiceMigrations } from '../../src/entities.js';

/** actions-service's schema, migrated, on a fresh SQLite file or PostgreSQL database, with its config. */
export type ActionsTestDatabase = ServiceTestDatabase<ActionsServiceConfig>;

export function openActionsTestDatabase(engine: 'sqlite' | 'postgres', name: string): Promise<ActionsTestDatabase> {
  return openServiceTestDatabase(engine, name, { service: 'actions', entities: ActionsServiceEntities, migrations: ActionsServiceMigrations, configClass: ActionsServiceConfig });
}
