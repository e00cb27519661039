import 'reflect-metadata';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/** Optional numbers and booleans from the environment arrive as strings. */
export const EnvBoolean = (): PropertyDecorator =>
  Transform(({ value }) => (typeof value === 'string' ? ['1', 'true', 'yes', 'on'].includes(value.toLowerCase()) : value));

/**
 * The environment every gitforge process reads. Apps extend it with their own keys.
 * `process.env` is read only by {@link loadConfig}; everything else receives the typed config.
 */
export class PlatformConfig {
  /** HTTP port of the gateway. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Public address of the service; used for clone_url, html_url and Link headers. Default `http://localhost:PORT/`. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'must be an http(s) URL' })
  GITFORGE_ROOT_URL?: string;

  /** Where repositories, the SQLite files and the embedded queue live. */
  @IsString()
  GITFORGE_DATA_DIR = './data';

  /** PostgreSQL connection string; when absent each service uses a SQLite file in the data directory. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
  DATABASE_URL?: string;

  /** Redis connection string; when present the transport is Redis Streams and the queues are BullMQ. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  REDIS_URL?: string;

  /**
   * Redis for the queues when it should differ from the transport's (`REDIS_URL`); defaults to
   * `REDIS_URL`. Lets a deployment keep queue traffic and memory apart from request traffic.
   */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
  GITFORGE_QUEUE_REDIS_URL?: string;

  /**
   * How long a running job stays claimed without a heartbeat: a job whose worker died is
   * recovered (run again) after about twice this long.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1000)
  GITFORGE_QUEUE_LOCK_MS = 30_000;

  /** On shutdown, how long running jobs may finish; those still running are returned to the queue. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  GITFORGE_QUEUE_SHUTDOWN_GRACE_MS = 10_000;

  /**
   * On SIGTERM, how long a process may finish what it has in flight (HTTP requests, transport
   * messages, clones and pushes) once it stopped taking new work; whatever still runs after it is
   * cut (a transport message is then claimed by another replica). Keep it below the orchestrator's
   * kill deadline (Kubernetes' terminationGracePeriodSeconds).
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  GITFORGE_SHUTDOWN_GRACE_MS = 20_000;

  /**
   * How far the JavaScript heap may grow past what its last full collection kept before the next
   * one, in percent (V8's `--heap-growing-percent`); 0 leaves it to V8. Unset, 100 in processes
   * that bulk passes through and 20 in those that only answer small calls. See `tuneHeap`.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(400)
  GITFORGE_HEAP_GROWING_PERCENT?: number;

  /**
   * Whether V8's memory reducer runs: it marks the whole heap again to give memory back once the
   * process looks idle, and a process streaming bytes looks idle to it. Off by default; see `tuneHeap`.
   */
  @EnvBoolean()
  @IsBoolean()
  GITFORGE_HEAP_MEMORY_REDUCER = false;

  /** Whether `/metrics` is served (the gateway's, and each service's metrics listener). As Gitea's `[metrics] ENABLED`. */
  @EnvBoolean()
  @IsBoolean()
  GITFORGE_METRICS_ENABLED = true;

  /** When set, `/metrics` answers only `Authorization: Bearer <token>` (as Gitea's `[metrics] TOKEN`). */
  @IsOptional()
  @IsString()
  GITFORGE_METRICS_TOKEN?: string;

  /**
   * The distributed layout: port of a service process's own listener for `/metrics`, `/healthz`
   * (alive) and `/readyz` (taking work). Unset, a service opens none. The gateway serves them on
   * its PORT; the embedded process serves one `/metrics` for all its apps there.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  GITFORGE_METRICS_PORT?: number;

  /** Interface the metrics listener binds. */
  @IsString()
  GITFORGE_METRICS_HOST = '0.0.0.0';

  /** Prefix of every Redis key gitforge writes (transport streams, reply channels, BullMQ queues). */
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'letters, digits, dot, dash and underscore only' })
  GITFORGE_REDIS_NAMESPACE = 'gitforge';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  GITFORGE_LOG_LEVEL = 'info';

  /** How long a caller waits for a reply on the transport before answering 504. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  GITFORGE_RPC_TIMEOUT_MS = 30_000;

  /**
   * Fallback for a live replica that is stuck: a request it stopped refreshing this long is
   * claimed by another replica. A replica that died is detected by its liveness key instead.
   */
  @Type(() => Number)
  @IsInt()
  @Min(500)
  GITFORGE_RPC_CLAIM_IDLE_MS = 10_000;

  /**
   * A replica's liveness key lives this long after its last refresh (refreshed every quarter of
   * it); once it is gone the requests the replica left pending are claimed by another replica.
   * Every replica refreshes its key, idle or not, so the refresh is kept to one round trip a
   * tick and a few ticks a second; and a loaded machine's stalls of up to three quarters of it
   * are no takeover.
   */
  @Type(() => Number)
  @IsInt()
  @Min(400)
  GITFORGE_RPC_LIVENESS_TTL_MS = 3_000;

  /** Requests one replica handles at once. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  GITFORGE_RPC_CONCURRENCY = 64;

  /** Connections per PostgreSQL pool (one pool per service process). */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  GITFORGE_DB_POOL_SIZE = 10;

  /**
   * Signs the caller the gateway forwards to a service's own HTTP listener (smart HTTP). The
   * gateway and repo-service need the same value when they run as separate processes; the
   * all-in-one process makes one up. No default: it is a secret.
   */
  @IsOptional()
  @IsString()
  @Matches(/^.{32,}$/, { message: 'must be at least 32 characters' })
  GITFORGE_INTERNAL_SECRET?: string;

  /**
   * Encrypts values stored that must be read back (actions secrets, runner registration tokens).
   * Without it, a key is generated once in the data directory (see SecretBox). Changing it makes
   * the values stored under the old key unreadable.
   */
  @IsOptional()
  @IsString()
  @Matches(/^.{16,}$/, { message: 'must be at least 16 characters' })
  GITFORGE_SECRET_KEY?: string;

  /** Name of this replica on the transport (defaults to hostname-pid). */
  @IsOptional()
  @IsString()
  GITFORGE_INSTANCE_ID?: string;

  /**
   * Port of repo-service's git SSH server (`ssh://git@host:port/owner/repo.git`); 0 turns it off.
   * Every process reads it: repositories' `ssh_url` is built from it.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  GITFORGE_SSH_PORT = 2222;

  /** Host name in `ssh_url` (default: the root URL's host). */
  @IsOptional()
  @IsString()
  GITFORGE_SSH_DOMAIN?: string;

  /** Port in `ssh_url` when clients reach the SSH server through another port (a load balancer's 22); default GITFORGE_SSH_PORT. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  GITFORGE_SSH_PUBLIC_PORT?: number;

  /** The host SSH URLs name: GITFORGE_SSH_DOMAIN, else the root URL's host. */
  get sshHost(): string {
    return this.GITFORGE_SSH_DOMAIN ?? hostnameOf(this.rootUrl);
  }

  /** How a repository is cloned over SSH: `git@host:` on port 22, else `ssh://git@host:port/` (as Gitea's ssh_url). */
  get sshUrlBase(): string {
    const host = this.sshHost;
    const port = this.GITFORGE_SSH_PUBLIC_PORT ?? this.GITFORGE_SSH_PORT;
    return port === 22 || port === 0 ? `git@${host}:` : `ssh://git@${host.includes(':') ? `[${host}]` : host}:${port}/`;
  }

  /** The root URL with a trailing slash. */
  get rootUrl(): string {
    const raw = this.GITFORGE_ROOT_URL ?? `http://localhost:${this.PORT}/`;
    return raw.endsWith('/') ? raw : `${raw}/`;
  }
}

/** The host name of the last root URL asked about: every repository an API answer shows asks again. */
let lastHost: { url: string; hostname: string } | undefined;
function hostnameOf(url: string): string {
  if (lastHost?.url !== url) lastHost = { url, hostname: new URL(url).hostname };
  return lastHost.hostname;
}

export class ConfigError extends Error {}

/**
 * Validates `env` against the class once, listing every bad key; empty strings count as unset.
 */
export function loadConfig<T extends PlatformConfig>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') plain[k] = v;
  const config = plainToInstance(cls, plain, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}=${JSON.stringify(e.value)}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}
