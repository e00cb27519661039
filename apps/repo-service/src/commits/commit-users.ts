import { Injectable } from '@nestjs/common';
import { UserPatterns, type Actor, type User } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import type { UsersByEmail } from './commit.mapper.js';

/** The accounts behind commit e-mails: one call to org-service for a whole page of commits. */
@Injectable()
export class CommitUsers {
  constructor(private readonly rpc: RpcClient) {}

  async byEmail(actor: Actor | null, emails: string[]): Promise<UsersByEmail> {
    const unique = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    if (unique.length === 0) return new Map();
    const found = await this.rpc.call<Record<string, User>, Record<string, string>, { emails: string[] }>(UserPatterns.getManyByEmail, {
      actor,
      body: { emails: unique },
    });
    return new Map(Object.entries(found));
  }
}
