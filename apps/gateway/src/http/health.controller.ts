import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { healthPattern, ServiceNames, type ServiceName } from '@gitforge/contracts';
import { RpcClient, type HealthReport } from '@gitforge/platform';

interface Check {
  componentId: ServiceName;
  status: 'pass' | 'fail';
  time: string;
}

/**
 * `GET /api/healthz` in Gitea's health+json shape: every service answers a database ping over
 * the transport within two seconds, or the whole is `fail` with 503.
 */
@Controller('api')
export class HealthController {
  constructor(private readonly rpc: RpcClient) {}

  @Get('healthz')
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const checks: Record<string, Check[]> = {};
    await Promise.all(
      ServiceNames.map(async (service) => {
        let status: 'pass' | 'fail' = 'fail';
        try {
          const report = await this.rpc.call<HealthReport>(
            healthPattern(service),
            { actor: null },
            { timeoutMs: 2000 },
          );
          status = report.status;
        } catch {
          status = 'fail';
        }
        checks[`${service}:ping`] = [{ componentId: service, status, time: new Date().toISOString() }];
      }),
    );
    const ok = Object.values(checks).every(([c]) => c!.status === 'pass');
    reply.status(ok ? 200 : 503).type('application/health+json');
    return { status: ok ? 'pass' : 'fail', description: 'gitforge', checks };
  }
}
