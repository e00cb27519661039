import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  UserPatterns,
  type CreateEmailOption,
  type DeleteEmailOption,
  type Email,
  type Page,
  type RpcRequest,
  searchKeyword,
} from '@gitforge/contracts';
import { EmailsService } from './emails.service.js';

@Controller()
export class EmailsController {
  constructor(private readonly emails: EmailsService) {}

  @MessagePattern(UserPatterns.listEmails)
  list(@Payload() req: RpcRequest): Promise<Email[]> {
    return this.emails.list(req.actor);
  }

  @MessagePattern(UserPatterns.addEmails)
  add(@Payload() req: RpcRequest<Record<string, string>, CreateEmailOption>): Promise<Email[]> {
    return this.emails.add(req.actor, req.body ?? {});
  }

  @MessagePattern(UserPatterns.deleteEmails)
  delete(@Payload() req: RpcRequest<Record<string, string>, DeleteEmailOption>): Promise<void> {
    return this.emails.delete(req.actor, req.body ?? {});
  }

  @MessagePattern(UserPatterns.searchEmails)
  search(@Payload() req: RpcRequest<Record<string, string>, undefined, { q?: string; page?: string; limit?: string }>): Promise<Page<Email>> {
    return this.emails.search(req.actor, searchKeyword(req.query.q), normalizeListOptions(req.query));
  }
}
