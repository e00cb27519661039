import { openServiceTestDatabase, type ServiceTestDatabase } from '@gitforge/platform/testing';
import type { PlatformConfig } from '@gitforge/platform';
import { WebhookWorkerEntities, WebhookWorkerMigrations } from '../../src/entities.js';

/** webhook-worker's schema, migrated, on a fresh SQLite file or PostgreSQL database, with its config. */
export type WebhookTestDatabase = ServiceTestDatabase<PlatformConfig>;

export function openWebhookTestDatabase(engine: 'sqlite' | 'postgres', name: string): Promise<WebhookTestDatabase> {
  return openServiceTestDatabase(engine, name, { service: 'webhook', entities: WebhookWorkerEntities, migrations: WebhookWorkerMigrations });
}
