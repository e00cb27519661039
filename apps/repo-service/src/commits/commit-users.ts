import { Injectable } from '@nestjs/common';
import type { UsersByEmail } from './commit.mapper.js';
import { DirectoryClient } from '@gitforge/platform';

/**
 * The accounts behind commit e-mails: one directory call for a whole page of commits. Rendered as
 * anyone sees them, whoever asks (Gitea's ToCommit renders authors and committers with no viewer),
 * so a commit never shows its author's private data.
 */
@Injectable()
export class CommitUsers {
  constructor(private readonly directory: DirectoryClient) {}

  async byEmail(emails: string[]): Promise<UsersByEmail> {
    const unique = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    const accounts = await this.directory.usersByEmails(null, unique);
    return new Map(accounts.map((a) => [a.email.toLowerCase(), a.user]));
  }
}
