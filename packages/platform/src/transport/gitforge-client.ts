import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { defer, mergeMap, Observable } from 'rxjs';

export interface SendOptions {
  /** Overrides the client's default timeout for this call. */
  timeoutMs?: number;
  /**
   * The call only reads org-service's directory, so the directory's version the request was read
   * with still holds after it (see RpcClient.directoryEpoch); any other call drops it.
   */
  directoryRead?: boolean;
}

/**
 * A ClientProxy whose `send` takes a per-call timeout. Both gitforge transports extend it;
 * a timeout surfaces as a `deadline_exceeded` error payload rather than a hung request.
 */
export abstract class GitforgeClientProxy extends ClientProxy {
  constructor(protected readonly defaultTimeoutMs: number) {
    super();
  }

  override send<TResult = unknown, TInput = unknown>(pattern: string, data: TInput, options?: SendOptions): Observable<TResult> {
    return defer(async () => this.connect()).pipe(
      mergeMap(
        () =>
          new Observable<TResult>((observer) => {
            const callback = this.createObserver(observer);
            return this.request({ pattern, data }, callback, options?.timeoutMs ?? this.defaultTimeoutMs);
          }),
      ),
    );
  }

  /**
   * {@link send} as a promise, without the observable machinery in between (the hot path of every
   * RpcClient call): resolves with the response, rejects with the error payload.
   */
  async invoke<TResult>(pattern: string, data: unknown, options?: SendOptions): Promise<TResult> {
    await this.connect();
    return new Promise<TResult>((resolve, reject) => {
      this.request({ pattern, data }, (packet) => (packet.err ? reject(packet.err) : resolve(packet.response as TResult)), options?.timeoutMs ?? this.defaultTimeoutMs);
    });
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    return this.request(packet, callback, this.defaultTimeoutMs);
  }

  protected abstract request(packet: ReadPacket, callback: (packet: WritePacket) => void, timeoutMs: number): () => void;

  /**
   * The directory's version now (see `DirectoryClient`); null when it is unknown or a write of the
   * directory is under way, and nothing may be reused or kept then.
   */
  abstract directoryEpoch(): Promise<string | null>;

  /**
   * org-service, around each write of its own: a write under way, and a new version, before the
   * write begins (a failure here stops the write before it touches anything), then one fewer under
   * way and a new version again once it has committed or rolled back, before its caller goes on.
   */
  abstract directoryWriteStarts(): Promise<void>;
  abstract directoryWriteEnds(): Promise<void>;

  // Domain events travel through the outbox and the queues, never as transport events.
  protected dispatchEvent<T>(): Promise<T> {
    return Promise.reject(new Error('gitforge transports carry requests only; publish events through the outbox'));
  }
}

export function timeoutPayload(pattern: string, timeoutMs: number): WritePacket {
  return { err: { code: 'deadline_exceeded', message: `${pattern}: no reply within ${timeoutMs} ms` } };
}
