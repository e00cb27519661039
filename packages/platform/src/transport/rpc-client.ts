import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ContractError, type Actor, type RpcRequest } from '@gitforge/contracts';
import { RequestContexts } from '../context/request-context.js';
import { secondsSince, transportCallDuration, transportCalls } from '../metrics/metrics.js';
import type { GitforgeClientProxy, SendOptions } from './gitforge-client.js';

export const RPC_CLIENT_PROXY = Symbol('RPC_CLIENT_PROXY');

export interface RpcCall<P = Record<string, string>, B = undefined, Q = Record<string, unknown>> {
  actor: Actor | null;
  params?: P;
  body?: B;
  query?: Q;
}

/**
 * How the gateway and the services call a message pattern. The request id of the current
 * request travels along; a failure arrives as the ContractError the handler threw.
 */
@Injectable()
export class RpcClient implements OnApplicationShutdown {
  constructor(@Inject(RPC_CLIENT_PROXY) private readonly proxy: GitforgeClientProxy) {}

  async call<R, P = Record<string, string>, B = undefined, Q = Record<string, unknown>>(
    pattern: string,
    call: RpcCall<P, B, Q>,
    options?: SendOptions,
  ): Promise<R> {
    const request: RpcRequest<P, B | undefined, Q> = {
      actor: call.actor,
      params: call.params ?? ({} as P),
      body: call.body,
      query: call.query ?? ({} as Q),
      requestId: RequestContexts.requestId() ?? randomUUID(),
    };
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      return await this.proxy.invoke<R>(pattern, request, options);
    } catch (err) {
      const failure =
        err instanceof ContractError
          ? err
          : ContractError.isPayload(err)
            ? ContractError.fromPayload(err)
            : new ContractError('unavailable', `${pattern}: ${err instanceof Error ? err.message : 'transport failure'}`);
      outcome = failure.code;
      throw failure;
    } finally {
      // The service called may have changed the directory (itself, or by calling org-service):
      // the version this request was read with no longer vouches for what it reads next.
      const context = RequestContexts.current();
      if (context && !options?.directoryRead) context.directoryEpoch = undefined;
      transportCalls.inc({ pattern, outcome });
      transportCallDuration.observe({ pattern, outcome }, secondsSince(started));
    }
  }

  /**
   * The directory's version for a read the caller may answer from what it kept (see
   * DirectoryClient): the one the transport read with this request while no other service has been
   * called since, otherwise the current one. Null when unknown or while the directory is being
   * written.
   */
  async directoryEpoch(): Promise<string | null> {
    const known = RequestContexts.current()?.directoryEpoch;
    return known !== undefined ? known : this.proxy.directoryEpoch();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.proxy.close();
  }
}
