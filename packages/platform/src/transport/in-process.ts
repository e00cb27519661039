import { randomUUID } from 'node:crypto';
import { Server, type CustomTransportStrategy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { serviceOfPattern, type ServiceName } from '@gitforge/contracts';
import { GitforgeClientProxy, timeoutPayload } from './gitforge-client.js';
import { invokeHandler, type RpcReply } from './invoke.js';
import { jsonCopy } from './json-copy.js';
import { directoryVersion } from './streams.js';

/** The services listening in this process (embedded layout). */
const listening = new Map<ServiceName, InProcessServer>();

/** The directory's version in this process, and its writes under way (every service of the embedded layout shares them). */
const directory = { epoch: 0, writes: 0 };

/**
 * The embedded layout's transport: calls the same `@MessagePattern` handlers directly.
 * Data is copied both ways as a JSON round trip would copy it (jsonCopy), so handlers and their
 * callers see exactly what the wire would carry.
 */
export class InProcessServer extends Server implements CustomTransportStrategy {
  constructor(readonly service: ServiceName) {
    super();
  }

  listen(callback: () => void): void {
    listening.set(this.service, this);
    callback();
  }

  close(): void {
    if (listening.get(this.service) === this) listening.delete(this.service);
  }

  on(): void {
    // No transport-level events.
  }

  unwrap<T>(): T {
    return listening as T;
  }
}

export class InProcessClient extends GitforgeClientProxy {
  async connect(): Promise<void> {}
  close(): void {}

  directoryEpoch(): Promise<string | null> {
    return Promise.resolve(directoryVersion(String(directory.epoch), String(directory.writes)));
  }

  directoryWriteStarts(): Promise<void> {
    directory.writes += 1;
    directory.epoch += 1;
    return Promise.resolve();
  }

  directoryWriteEnds(): Promise<void> {
    directory.writes = Math.max(0, directory.writes - 1);
    directory.epoch += 1;
    return Promise.resolve();
  }

  unwrap<T>(): T {
    return listening as T;
  }

  protected request(packet: ReadPacket, callback: (packet: WritePacket) => void, timeoutMs: number): () => void {
    const pattern = String(packet.pattern);
    let active = true;
    const timer = setTimeout(() => {
      if (!active) return;
      active = false;
      callback(timeoutPayload(pattern, timeoutMs));
    }, timeoutMs);
    const service = serviceOfPattern(pattern);
    const server = service ? listening.get(service) : undefined;
    const data: unknown = jsonCopy(packet.data ?? null);
    setImmediate(() => {
      const reply: Promise<RpcReply> = server
        ? invokeHandler(server, randomUUID(), pattern, data)
        : Promise.resolve({ id: '', err: { code: 'unavailable', message: `service ${service ?? '?'} is not running` } });
      void reply.then((r) => {
        if (!active) return;
        active = false;
        clearTimeout(timer);
        const copy = jsonCopy(r);
        callback(copy.err ? { err: copy.err } : { response: copy.response, isDisposed: true });
      });
    });
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }
}
