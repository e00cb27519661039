import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AuthPatterns, type AuthenticateRequest, type AuthResult, type RpcRequest } from '@gitforge/contracts';
import { AuthService } from './auth.service.js';

@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @MessagePattern(AuthPatterns.authenticate)
  authenticate(@Payload() req: RpcRequest<Record<string, string>, AuthenticateRequest>): Promise<AuthResult> {
    return this.auth.authenticate(req.body);
  }
}
