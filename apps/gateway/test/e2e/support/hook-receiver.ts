/** A loopback HTTP server that records webhook deliveries and answers as a test tells it to. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectEventually } from '@gitforge/platform/testing';

export interface ReceivedDelivery {
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
  at: number;
}

export class HookReceiver {
  readonly received: ReceivedDelivery[] = [];
  private readonly statuses = new Map<string, number[]>();
  private readonly holds = new Map<string, { release: () => void; released: Promise<void> }>();
  private readonly delays = new Map<string, number>();

  private constructor(
    private readonly server: http.Server,
    readonly port: number,
  ) {}

  static async start(): Promise<HookReceiver> {
    const ready: { receiver?: HookReceiver } = {};
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void ready.receiver!.handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ready.receiver = new HookReceiver(server, (server.address() as AddressInfo).port);
    return ready.receiver;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(',') : (v ?? '');
    this.received.push({ method: req.method ?? '', path, headers, body, at: Date.now() });
    const hold = this.holds.get(path);
    if (hold) await hold.released;
    const delay = this.delays.get(path);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    const status = this.statuses.get(path)?.shift() ?? 200;
    res.statusCode = status;
    res.setHeader('content-type', 'text/plain');
    res.end(status < 300 ? 'thanks' : 'try again');
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Answers the next requests to `path` with these statuses (then 200). */
  respond(path: string, statuses: number[]): void {
    this.statuses.set(path, [...statuses]);
  }

  /** Answers each request to `path` after `ms` (a receiver that takes its time). */
  delay(path: string, ms: number): void {
    this.delays.set(path, ms);
  }

  /** Holds requests to `path` unanswered until released (the sender sees a slow receiver). */
  hold(path: string): () => void {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(path, { release, released });
    return () => {
      this.holds.delete(path);
      release();
    };
  }

  at(path: string): ReceivedDelivery[] {
    return this.received.filter((d) => d.path === path);
  }

  /** Waits until `path` has received at least `count` requests and answers them. */
  async waitFor(path: string, count = 1, timeoutMs = 20_000): Promise<ReceivedDelivery[]> {
    return expectEventually(
      () => {
        const got = this.at(path);
        if (got.length < count) throw new Error(`${path}: ${got.length} of ${count} deliveries`);
        return got;
      },
      { timeoutMs, intervalMs: 50 },
    );
  }

  async close(): Promise<void> {
    for (const h of this.holds.values()) h.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
