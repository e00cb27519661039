import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's one Prometheus registry. Every app of a process records into it, so the embedded
 * layout (all apps in one process) serves a single `/metrics` and each process of the distributed
 * layout serves its own (see {@link startOpsListener} and the gateway's `/metrics`).
 */
export const metricsRegistry = new Registry();

/** How often the event-loop delay is sampled (prom-client's default is 10 ms). */
const LAG_SAMPLING_MS = 100;

/**
 * prom-client's own delay histogram feeds only the `nodejs_eventloop_lag_*_seconds` series, which
 * are all replaced below: it samples once a minute, since every sample is a wakeup of an idle process.
 */
const PROM_CLIENT_SAMPLING_MS = 60_000;

// CPU, memory, event-loop lag, handles, GC: prom-client's standard process and Node.js series.
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: PROM_CLIENT_SAMPLING_MS });

/** What Node's event-loop delay histogram answers, as far as the lag series read it. */
export interface DelayHistogram {
  readonly count: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly stddev: number;
  percentile(p: number): number;
}

/**
 * The delay series prom-client derives from its histogram, by the suffix of their names, and
 * whether a value is a delay (the sampling interval is then taken off it) or a spread.
 */
const DELAY_SERIES: ReadonlyArray<readonly [string, string, (h: DelayHistogram) => number, 'delay' | 'spread']> = [
  ['min', 'The minimum recorded event loop delay.', (h) => h.min, 'delay'],
  ['max', 'The maximum recorded event loop delay.', (h) => h.max, 'delay'],
  ['mean', 'The mean of the recorded event loop delays.', (h) => h.mean, 'delay'],
  ['stddev', 'The standard deviation of the recorded event loop delays.', (h) => h.stddev, 'spread'],
  ['p50', 'The 50th percentile of the recorded event loop delays.', (h) => h.percentile(50), 'delay'],
  ['p90', 'The 90th percentile of the recorded event loop delays.', (h) => h.percentile(90), 'delay'],
  ['p99', 'The 99th percentile of the recorded event loop delays.', (h) => h.percentile(99), 'delay'],
];

/**
 * The delay series' values in seconds, net of the sampling interval: each sample of Node's
 * histogram is the time between two ticks of its timer, the interval included (their spread needs
 * no correction). Nothing when the histogram has no sample yet (its min is then a huge number, not
 * a delay).
 */
export function eventLoopDelays(h: DelayHistogram, samplingMs: number): Map<string, number> | null {
  if (h.count === 0) return null;
  return new Map(DELAY_SERIES.map(([suffix, , read, kind]) => [suffix, Math.max(0, read(h) - (kind === 'delay' ? samplingMs * 1e6 : 0)) / 1e9]));
}

// prom-client reports its histogram as is, so at a 100 ms interval an idle process would show a lag
// of 0.1 s in every one of these series (0.01 s at its default), and sampled at its interval here:
// the same names, from a histogram sampled every 100 ms and net of the interval, replace them. A
// stall worth alerting on lasts far longer than 100 ms; at 10 ms the sampling alone cost an idle
// process about 6 ms of CPU per second.
const delayHistogram = monitorEventLoopDelay({ resolution: LAG_SAMPLING_MS });
delayHistogram.enable();
const delayGauges: Array<readonly [string, Gauge]> = [];
for (const [i, [suffix, help]] of DELAY_SERIES.entries()) {
  const name = `nodejs_eventloop_lag_${suffix}_seconds`;
  metricsRegistry.removeSingleMetric(name);
  // The first one's collect sets them all (a scrape collects in registration order).
  delayGauges.push([suffix, new Gauge({ name, help, registers: [metricsRegistry], ...(i === 0 ? { collect: collectDelays } : {}) })]);
}

/** Sets every delay gauge from the histogram's window since the last scrape, then starts a new window. */
function collectDelays(): void {
  const delays = eventLoopDelays(delayHistogram, LAG_SAMPLING_MS);
  if (delays) for (const [suffix, gauge] of delayGauges) gauge.set(delays.get(suffix)!);
  delayHistogram.reset();
}

/** Durations from a millisecond to a few minutes (clones and pushes of large repositories). */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180];

/** HTTP requests the gateway answered, by route template (never the raw path: its cardinality is unbounded). */
export const httpRequests = new Counter({
  name: 'gitforge_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

/** HTTP requests the gateway has read the head of and not yet finished answering (a shutdown waits for them). */
export const httpRequestsInFlight = new Gauge({
  name: 'gitforge_http_requests_in_flight',
  help: 'HTTP requests being answered, by method and route template',
  labelNames: ['method', 'route'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDuration = new Histogram({
  name: 'gitforge_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Calls made through the transport, seen by the caller (a timeout is only visible here). */
export const transportCalls = new Counter({
  name: 'gitforge_transport_calls_total',
  help: 'Transport calls made, by message pattern and outcome (ok or the error code)',
  labelNames: ['pattern', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const transportCallDuration = new Histogram({
  name: 'gitforge_transport_call_duration_seconds',
  help: 'Round trip of a transport call as the caller saw it, by message pattern and outcome',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Transport messages a service handled (either transport), by pattern and outcome. */
export const transportHandled = new Counter({
  name: 'gitforge_transport_handled_total',
  help: 'Transport messages handled by this process, by message pattern and outcome (ok or the error code)',
  labelNames: ['pattern', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const transportHandleDuration = new Histogram({
  name: 'gitforge_transport_handle_duration_seconds',
  help: 'Time a handler took for one transport message, by message pattern and outcome',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Job attempts by queue and outcome: `completed`, or `failed` (retried with backoff while attempts remain). */
export const queueJobs = new Counter({
  name: 'gitforge_queue_jobs_total',
  help: 'Queue job attempts run by this process, by queue and outcome (completed or failed)',
  labelNames: ['queue', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const queueJobDuration = new Histogram({
  name: 'gitforge_queue_job_duration_seconds',
  help: 'Time a queue job attempt ran, by queue and outcome',
  labelNames: ['queue', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Something that can count a queue's pending jobs (a queue driver). */
export interface QueueDepthSource {
  pendingCount(queue: string): Promise<number>;
}

const depthSources = new Map<string, QueueDepthSource>();

/** Jobs waiting, running or delayed per queue this process consumes, read from the queue at scrape time. */
export const queueDepth = new Gauge({
  name: 'gitforge_queue_depth',
  help: 'Jobs waiting, running or delayed, per queue consumed by this process',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...depthSources].map(async ([queue, source]) => {
        try {
          this.set({ queue }, await source.pendingCount(queue));
        } catch {
          // The queue's store is unreachable: leave the series out rather than report a false zero.
        }
      }),
    );
  },
});

/** Has `gitforge_queue_depth` report `queue`, counted by `source` (the driver consuming it). */
export function trackQueueDepth(queue: string, source: QueueDepthSource): void {
  depthSources.set(queue, source);
}

/** Stops reporting the depth of the queues `source` consumed (the driver closed). */
export function untrackQueueDepth(source: QueueDepthSource): void {
  for (const [queue, s] of depthSources) if (s === source) depthSources.delete(queue);
}

/** Webhook deliveries by outcome: `success` (2xx), `failure` (answered otherwise or unreachable), `refused` (a host the allow-list forbids). */
export const webhookDeliveries = new Counter({
  name: 'gitforge_webhook_deliveries_total',
  help: 'Webhook deliveries attempted, by outcome (success, failure or refused)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveryDuration = new Histogram({
  name: 'gitforge_webhook_delivery_duration_seconds',
  help: 'Time a webhook delivery took, by outcome',
  labelNames: ['outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** git processes run, by kind (the git subcommand, or the smart-HTTP service) and outcome. */
export const gitOperations = new Counter({
  name: 'gitforge_git_operations_total',
  help: 'git processes run, by kind (subcommand or smart-HTTP service) and outcome (ok or error)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const gitOperationDuration = new Histogram({
  name: 'gitforge_git_operation_duration_seconds',
  help: 'Time a git process ran, by kind and outcome',
  labelNames: ['kind', 'outcome'] as const,
  buckets: DURATION_BUCKETS,
  registers: [metricsRegistry],
});

/** Seconds since `started` (a `process.hrtime.bigint()` value). */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** The exposition text and its content type, for whichever listener serves `/metrics`. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
