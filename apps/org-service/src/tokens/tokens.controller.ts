import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  TokenPatterns,
  type AccessToken,
  type CreateAccessTokenOption,
  type CurrentAccessToken,
  type Page,
  type RpcRequest,
  type TokenParams,
} from '@gitforge/contracts';
import { TokensService } from './tokens.service.js';

@Controller()
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @MessagePattern(TokenPatterns.create)
  create(@Payload() req: RpcRequest<TokenParams, CreateAccessTokenOption>): Promise<AccessToken> {
    return this.tokens.create(req.actor, req.params, req.body);
  }

  @MessagePattern(TokenPatterns.list)
  list(@Payload() req: RpcRequest<TokenParams>): Promise<Page<AccessToken>> {
    return this.tokens.list(req.actor, req.params, normalizeListOptions(req.query));
  }

  @MessagePattern(TokenPatterns.current)
  current(@Payload() req: RpcRequest<Record<string, string>, { token?: string }>): Promise<CurrentAccessToken> {
    return this.tokens.current(req.actor, req.body?.token);
  }

  @MessagePattern(TokenPatterns.deleteCurrent)
  deleteCurrent(@Payload() req: RpcRequest<Record<string, string>, { token?: string }>): Promise<void> {
    return this.tokens.deleteCurrent(req.actor, req.body?.token);
  }

  @MessagePattern(TokenPatterns.delete)
  delete(@Payload() req: RpcRequest<TokenParams & { token: string }>): Promise<void> {
    return this.tokens.delete(req.actor, req.params);
  }
}
