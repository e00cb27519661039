import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MarkupPatterns, type MarkupOption, type RpcRequest } from '@gitforge/contracts';
import { MarkupService } from './markup.service.js';

@Controller()
export class MarkupController {
  constructor(private readonly markup: MarkupService) {}

  @MessagePattern(MarkupPatterns.render)
  render(@Payload() req: RpcRequest<Record<string, string>, MarkupOption>): Promise<string> {
    return this.markup.render(req.actor, req.body ?? {});
  }
}
