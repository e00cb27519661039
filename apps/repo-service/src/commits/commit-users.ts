import { Injectable } from '@nestjs/common';
import type { Actor } from '@gitforge/contracts';
import type { UsersByEmail } from './commit.mapper.js';
import { DirectoryClient } from '@gitforge/platform';

/** The accounts behind commit e-mails, as the actor sees them: one directory call for a whole page of commits. */
@Injectable()
export class CommitUsers {
  constructor(private readonly directory: DirectoryClient) {}

  async byEmail(actor: Actor | null, emails: string[]): Promise<UsersByEmail> {
    const unique = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    const accounts = await this.directory.usersByEmails(actor, unique);
    return new Map(accounts.map((a) => [a.email.toLowerCase(), a.user]));
  }
}
