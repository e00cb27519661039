import type { IncomingMessage, ServerResponse } from 'node:http';
import { create, type JsonObject } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import type { FastifyInstance } from 'fastify';
import {
  ContractError,
  RunnerProtocolPatterns,
  type ErrorCode,
  type RunnerCredentials,
  type RunnerFetchAnswer,
  type RunnerLogRow,
  type RunnerMessage,
  type RunnerTaskState,
  type RunnerUpdateTaskAnswer,
} from '@gitforge/contracts';
import { createLogger, RequestContexts, type RpcClient } from '@gitforge/platform';
import { PingService } from './gen/ping/v1/services_pb.js';
import { RunnerSchema, TaskNeedSchema, TaskSchema, type Runner, type Task, type TaskState } from './gen/runner/v1/messages_pb.js';
import { RunnerService } from './gen/runner/v1/services_pb.js';

const log = createLogger('runner-protocol');

/** Where act_runner finds the protocol: `<instance>/api/actions/<service>/<method>`, as Gitea serves it. */
export const RUNNER_PROTOCOL_PREFIX = '/api/actions';

/** The headers act_runner authenticates with (its client's UUIDHeader and TokenHeader). */
const UUID_HEADER = 'x-runner-uuid';
const TOKEN_HEADER = 'x-runner-token';

const CODES: Partial<Record<ErrorCode, Code>> = {
  not_found: Code.NotFound,
  invalid_argument: Code.InvalidArgument,
  unprocessable: Code.InvalidArgument,
  unauthenticated: Code.Unauthenticated,
  permission_denied: Code.PermissionDenied,
  conflict: Code.AlreadyExists,
  unavailable: Code.Unavailable,
};

/** A service's refusal as the connect error act_runner understands; anything else is internal (and logged). */
function toConnectError(err: unknown): ConnectError {
  if (err instanceof ContractError) return new ConnectError(err.message, CODES[err.code] ?? Code.Internal);
  log.error({ err }, 'runner protocol call failed');
  return new ConnectError('internal error', Code.Internal);
}

const credentials = (ctx: HandlerContext): RunnerCredentials => ({
  uuid: ctx.requestHeader.get(UUID_HEADER) ?? '',
  token: ctx.requestHeader.get(TOKEN_HEADER) ?? '',
});

const toRunner = (r: RunnerMessage): Runner =>
  create(RunnerSchema, { id: BigInt(r.id), uuid: r.uuid, token: r.token, name: r.name, version: r.version, labels: r.labels, ephemeral: r.ephemeral });

const ms = (t: { seconds: bigint; nanos: number } | undefined): number | null => {
  if (!t || (t.seconds === 0n && t.nanos === 0)) return null;
  return timestampDate(t as Parameters<typeof timestampDate>[0]).getTime();
};

function toTaskState(state: TaskState | undefined): RunnerTaskState {
  return {
    id: Number(state?.id ?? 0n),
    result: state?.result ?? 0,
    startedAt: ms(state?.startedAt),
    stoppedAt: ms(state?.stoppedAt),
    steps: (state?.steps ?? []).map((s) => ({
      id: Number(s.id),
      result: s.result,
      startedAt: ms(s.startedAt),
      stoppedAt: ms(s.stoppedAt),
      logIndex: Number(s.logIndex),
      logLength: Number(s.logLength),
    })),
  };
}

function toTask(answer: RunnerFetchAnswer): Task | undefined {
  const t = answer.task;
  if (!t) return undefined;
  return create(TaskSchema, {
    id: BigInt(t.id),
    workflowPayload: new TextEncoder().encode(t.workflowPayload),
    context: t.context as JsonObject,
    secrets: t.secrets,
    vars: t.vars,
    needs: Object.fromEntries(Object.entries(t.needs).map(([k, n]) => [k, create(TaskNeedSchema, { outputs: n.outputs, result: n.result })])),
  });
}

/**
 * Gitea's runner protocol (ping.v1 and runner.v1 over connect) on the gateway's own listener:
 * each call is decoded here and forwarded to actions-service as plain JSON on the transport, so
 * the gateway keeps no state and actions-service scales like every other service.
 */
export function runnerProtocolRoutes(rpc: RpcClient): (router: ConnectRouter) => void {
  const call = async <R, B>(pattern: string, body: B): Promise<R> => {
    try {
      return await rpc.call<R, Record<string, string>, B>(pattern, { actor: null, body });
    } catch (err) {
      throw toConnectError(err);
    }
  };
  return (router) => {
    router.service(PingService, {
      ping: (req) => ({ data: `Hello, ${req.data}!` }),
    });
    router.service(RunnerService, {
      async register(req) {
        const runner = await call<RunnerMessage, object>(RunnerProtocolPatterns.register, {
          name: req.name,
          token: req.token,
          version: req.version,
          // act_runner before 0.2 sent agent and custom labels separately.
          labels: req.labels.length > 0 ? req.labels : [...req.agentLabels, ...req.customLabels],
          ephemeral: req.ephemeral,
        });
        return { runner: toRunner(runner) };
      },
      async declare(req, ctx) {
        const runner = await call<RunnerMessage, object>(RunnerProtocolPatterns.declare, { runner: credentials(ctx), version: req.version, labels: req.labels });
        return { runner: toRunner(runner) };
      },
      async fetchTask(req, ctx) {
        const answer = await call<RunnerFetchAnswer, object>(RunnerProtocolPatterns.fetchTask, {
          runner: credentials(ctx),
          tasksVersion: Number(req.tasksVersion),
        });
        return { task: toTask(answer), tasksVersion: BigInt(answer.tasksVersion) };
      },
      async updateTask(req, ctx) {
        const answer = await call<RunnerUpdateTaskAnswer, object>(RunnerProtocolPatterns.updateTask, {
          runner: credentials(ctx),
          state: toTaskState(req.state),
          outputs: req.outputs,
        });
        return { state: { id: BigInt(answer.state.id), result: answer.state.result }, sentOutputs: answer.sentOutputs };
      },
      async updateLog(req, ctx) {
        const rows: RunnerLogRow[] = req.rows.map((r) => ({ time: ms(r.time) ?? Date.now(), content: r.content }));
        const ack = await call<number, object>(RunnerProtocolPatterns.updateLog, {
          runner: credentials(ctx),
          taskId: Number(req.taskId),
          index: Number(req.index),
          rows,
          noMore: req.noMore,
        });
        return { ackIndex: BigInt(ack) };
      },
    });
  };
}

/** Serves the protocol under /api/actions before Fastify's routing and body parsing see the request. */
export function registerRunnerProtocol(fastify: FastifyInstance, rpc: RpcClient, maxBodyBytes: number): void {
  const handler = connectNodeAdapter({
    routes: runnerProtocolRoutes(rpc),
    requestPathPrefix: RUNNER_PROTOCOL_PREFIX,
    readMaxBytes: maxBodyBytes,
  });
  fastify.addHook('onRequest', (req, reply, done) => {
    if (!req.url.startsWith(`${RUNNER_PROTOCOL_PREFIX}/`)) return done();
    reply.hijack();
    RequestContexts.run({ requestId: req.id }, () => {
      handler(req.raw as IncomingMessage, reply.raw as ServerResponse);
    });
  });
}
