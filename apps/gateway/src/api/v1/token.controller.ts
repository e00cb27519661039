import { Controller, Delete, Get, HttpCode, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { TokenPatterns, type Actor, type CurrentAccessToken } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { headerToken } from '../../auth/credentials.js';

/**
 * `/token`: the token the request authenticated with (Gitea 1.26+). No scope is required; Gitea
 * reads the token from the Authorization header only, so other credentials answer 404.
 */
@Controller('api/v1/token')
@Access({ signIn: true })
export class TokenController {
  constructor(private readonly rpc: RpcClient) {}

  @Get()
  get(@CurrentActor() actor: Actor, @Req() request: FastifyRequest): Promise<CurrentAccessToken> {
    return this.rpc.call(TokenPatterns.current, { actor, body: { token: headerToken(request) } });
  }

  @Delete()
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor, @Req() request: FastifyRequest): Promise<void> {
    await this.rpc.call(TokenPatterns.deleteCurrent, { actor, body: { token: headerToken(request) } });
  }
}
