import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { openServiceTestDatabase, type ServiceTestDatabase } from '@gitforge/platform/testing';
import type { PlatformConfig } from '@gitforge/platform';
import { IssueServiceEntities, IssueServiceMigrations } from '../../src/entities.js';

/** issue-service's schema, migrated, on a fresh SQLite file or PostgreSQL database. */
export type IssueTestDatabase = ServiceTestDatabase<PlatformConfig>;

export function openIssueTestDatabase(engine: 'sqlite' | 'postgres', name: string): Promise<IssueTestDatabase> {
  return openServiceTestDatabase(engine, name, { service: 'issue', entities: IssueServiceEntities, migrations: IssueServiceMigrations });
}

let seq = 0;

/** A row of `entity`: `links` where it has those columns, a filler in every other required column. */
export async function fillerRow<T extends ObjectLiteral>(
  m: EntityManager,
  entity: EntityTarget<T>,
  links: Record<string, number | string | boolean>,
): Promise<T> {
  const values: ObjectLiteral = {};
  for (const c of m.connection.getMetadata(entity).columns) {
    if (c.isGenerated) continue;
    if (c.propertyName in links) values[c.propertyName] = links[c.propertyName];
    else if (!c.isNullable && c.default === undefined) {
      const type = String(c.type);
      values[c.propertyName] = /time|date/i.test(type) ? new Date() : /bool/i.test(type) ? false : /int|number/i.test(type) ? ++seq : `x${++seq}`;
    }
  }
  return m.save(m.create(entity, values as T));
}
