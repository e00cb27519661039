import { resolve } from 'node:path';
import { Global, Module, type DynamicModule, type OnApplicationShutdown, type Provider, type Type, Inject, Injectable } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { ServiceName } from '@gitforge/contracts';
import { loadConfig, PlatformConfig } from './config/config.js';
import { setLogLevel } from './logging/logger.js';
import { createServiceDataSource, openServiceDatabase } from './database/data-source.js';
import { Database } from './database/database.js';
import { createHealthController } from './health/health.js';
import { OutboxRelay } from './outbox/outbox.relay.js';
import { OutboxService } from './outbox/outbox.service.js';
import { BullMqDriver } from './queue/bullmq.driver.js';
import { QueueDriver } from './queue/queue-driver.js';
import { SqliteQueueDriver } from './queue/sqlite-queue.driver.js';
import { InProcessClient } from './transport/in-process.js';
import { RedisStreamsClient } from './transport/redis-streams.client.js';
import { RPC_CLIENT_PROXY, RpcClient } from './transport/rpc-client.js';
import { RpcErrorFilter } from './transport/rpc-error.filter.js';
import { BlobStore } from './storage/blob-store.js';
import { FsBlobStore } from './storage/fs-blob-store.js';
import type { GitforgeClientProxy } from './transport/gitforge-client.js';

export interface ServicePlatformOptions<C extends PlatformConfig> {
  service: ServiceName;
  /** The app's environment class (extends PlatformConfig); validated once at start. */
  config?: new () => C;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: Function[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations?: Function[];
}

/** The transport client the config asks for: Redis Streams with `REDIS_URL`, in-process without. */
export function createClientProxy(config: PlatformConfig): GitforgeClientProxy {
  return config.REDIS_URL
    ? new RedisStreamsClient(config.REDIS_URL, config.GITFORGE_REDIS_NAMESPACE, config.GITFORGE_RPC_TIMEOUT_MS)
    : new InProcessClient(config.GITFORGE_RPC_TIMEOUT_MS);
}

/** The queue the config asks for: BullMQ with `GITFORGE_QUEUE_REDIS_URL` or `REDIS_URL`, the durable SQLite queue without. */
export function createQueueDriver(config: PlatformConfig): QueueDriver {
  const options = { lockMs: config.GITFORGE_QUEUE_LOCK_MS, shutdownGraceMs: config.GITFORGE_QUEUE_SHUTDOWN_GRACE_MS };
  const redisUrl = config.GITFORGE_QUEUE_REDIS_URL ?? config.REDIS_URL;
  return redisUrl
    ? new BullMqDriver(redisUrl, `${config.GITFORGE_REDIS_NAMESPACE}-bull`, options)
    : SqliteQueueDriver.acquire(resolve(config.GITFORGE_DATA_DIR, 'queue.sqlite'), options);
}

/**
 * Where attachments (and later release assets and packages) are kept: the data directory, which
 * the distributed layout shares between replicas as a volume, as it does for repositories. An
 * S3-compatible store would be chosen here, from the environment, without touching its callers.
 */
export function createBlobStore(config: PlatformConfig): BlobStore {
  return new FsBlobStore(config.GITFORGE_DATA_DIR);
}

@Injectable()
class PlatformLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(Database) private readonly db: Database,
    @Inject(QueueDriver) private readonly queue: QueueDriver,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    if (this.db.dataSource.isInitialized) await this.db.dataSource.destroy();
  }
}

function configProviders<C extends PlatformConfig>(cls: new () => C): Provider[] {
  const providers: Provider[] = [
    {
      provide: cls,
      useFactory: () => {
        const config = loadConfig(cls);
        setLogLevel(config.GITFORGE_LOG_LEVEL);
        return config;
      },
    },
  ];
  if ((cls as unknown) !== PlatformConfig) providers.push({ provide: PlatformConfig, useExisting: cls });
  return providers;
}

/**
 * The plumbing every app imports once in its root module. Which database, transport and queue
 * it provides follows from the environment alone; domain modules never learn which layout runs.
 */
@Global()
@Module({})
export class PlatformModule {
  static forService<C extends PlatformConfig>(options: ServicePlatformOptions<C>): DynamicModule {
    const cls = (options.config ?? PlatformConfig) as new () => C;
    const providers: Provider[] = [
      ...configProviders(cls),
      {
        provide: Database,
        inject: [PlatformConfig, RPC_CLIENT_PROXY],
        useFactory: async (config: PlatformConfig, proxy: GitforgeClientProxy) => {
          const ds = createServiceDataSource(config, {
            service: options.service,
            entities: options.entities ?? [],
            migrations: options.migrations ?? [],
          });
          await openServiceDatabase(ds, options.service);
          const db = new Database(ds);
          // org-service keeps the directory the other services read through DirectoryClient: each
          // of its writes is announced while under way and gives the directory a new version, so
          // no kept answer outlives a change (see DirectoryClient).
          if (options.service === 'org') db.aroundEveryWrite({ before: () => proxy.directoryWriteStarts(), after: () => proxy.directoryWriteEnds() });
          return db;
        },
      },
      { provide: QueueDriver, inject: [PlatformConfig], useFactory: createQueueDriver },
      { provide: RPC_CLIENT_PROXY, inject: [PlatformConfig], useFactory: createClientProxy },
      { provide: BlobStore, inject: [PlatformConfig], useFactory: createBlobStore },
      RpcClient,
      OutboxRelay,
      OutboxService,
      PlatformLifecycle,
      { provide: APP_FILTER, useClass: RpcErrorFilter },
    ];
    return {
      module: PlatformModule,
      controllers: [createHealthController(options.service) as Type<unknown>],
      providers,
      exports: [cls, PlatformConfig, Database, QueueDriver, BlobStore, RpcClient, OutboxService, OutboxRelay],
    };
  }

  /** For the gateway: configuration and the transport client, no database. */
  static forGateway<C extends PlatformConfig>(cls: new () => C): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        ...configProviders(cls),
        { provide: RPC_CLIENT_PROXY, inject: [PlatformConfig], useFactory: createClientProxy },
        RpcClient,
      ],
      exports: [cls, PlatformConfig, RpcClient],
    };
  }
}
