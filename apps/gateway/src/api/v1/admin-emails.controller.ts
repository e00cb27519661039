import { Controller, Get, Query } from '@nestjs/common';
import { UserPatterns, type Actor, type Email, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { Paginated } from '../../http/paginated.js';

/** `/admin/emails`: every individual's e-mail addresses, for site administrators. */
@Controller('api/v1/admin/emails')
@Access({ admin: true, scope: 'admin' })
export class AdminEmailsController {
  constructor(private readonly rpc: RpcClient) {}

  /** The search without `q` (any `q` given here is ignored, as Gitea does). */
  @Get()
  @Paginated()
  list(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Email>> {
    return this.rpc.call<Page<Email>>(UserPatterns.searchEmails, {
      actor,
      query: { page: query.page, limit: query.limit },
    });
  }

  /** `q` matches the address, the login and the full name. */
  @Get('search')
  @Paginated()
  search(@CurrentActor() actor: Actor, @Query() query: Record<string, string>): Promise<Page<Email>> {
    return this.rpc.call<Page<Email>>(UserPatterns.searchEmails, { actor, query });
  }
}
