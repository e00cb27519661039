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
      transportCalls.inc({ pattern, outcome });
      transportCallDuration.observe({ pattern, outcome }, secondsSince(started));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.proxy.close();
  }
}
