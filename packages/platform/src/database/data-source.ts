import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { ServiceName } from '@gitforge/contracts';
import type { PlatformConfig } from '../config/config.js';
import { SnakeNamingStrategy } from './naming-strategy.js';
import { PlatformEntities } from './platform.entities.js';
import { PlatformTables1763800000000 } from './platform.migration.js';

export interface ServiceDatabaseOptions {
  service: ServiceName;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

/**
 * One database per service: a PostgreSQL schema named after the service when `DATABASE_URL`
 * is set, else a SQLite file `<data dir>/<service>.sqlite`. The service owns every table in it.
 */
export function createServiceDataSource(config: PlatformConfig, options: ServiceDatabaseOptions): DataSource {
  const common = {
    entities: [...PlatformEntities, ...options.entities],
    migrations: [PlatformTables1763800000000, ...options.migrations],
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    logging: false,
  };
  let ds: DataSourceOptions;
  if (config.DATABASE_URL) {
    const schema = schemaName(options.service);
    ds = {
      ...common,
      type: 'postgres',
      url: config.DATABASE_URL,
      schema,
      // Raw SQL in migrations and repositories then lands in the service's schema without qualifying names.
      extra: { options: `-c search_path=${schema}`, max: config.GITFORGE_DB_POOL_SIZE },
    };
  } else {
    const dir = resolve(config.GITFORGE_DATA_DIR);
    mkdirSync(dir, { recursive: true });
    ds = {
      ...common,
      type: 'better-sqlite3',
      database: resolve(dir, `${options.service}.sqlite`),
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
        db.pragma('busy_timeout = 5000');
        db.pragma('foreign_keys = ON');
      },
    };
  }
  return new DataSource(ds);
}

export const schemaName = (service: ServiceName): string => `gitforge_${service}`;

/**
 * Initialises the data source and runs pending migrations. On PostgreSQL the schema is created
 * first and an advisory lock keeps replicas that start together from migrating twice.
 */
export async function openServiceDatabase(dataSource: DataSource, service: ServiceName): Promise<void> {
  if (dataSource.options.type === 'postgres') {
    const bootstrap = new DataSource({ ...(dataSource.options as DataSourceOptions), entities: [], migrations: [], extra: { max: 1 } } as DataSourceOptions);
    await bootstrap.initialize();
    try {
      await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${schemaName(service)}"`);
    } catch (err) {
      // Two replicas creating the schema at the same moment: the loser sees a unique violation.
      if ((err as { code?: string }).code !== '23505') throw err;
    } finally {
      await bootstrap.destroy();
    }
  }
  await dataSource.initialize();
  if (dataSource.options.type === 'postgres') {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`gitforge:migrate:${service}`]);
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`gitforge:migrate:${service}`]);
      await runner.release();
    }
  } else {
    await dataSource.runMigrations({ transaction: 'each' });
  }
}
