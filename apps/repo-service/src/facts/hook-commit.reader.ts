import { Injectable } from '@nestjs/common';
import { isValidRefName, type Actor, type PayloadCommit } from '@gitforge/contracts';
import { GitService } from '../git/git.service.js';
import { toPayloadCommit } from '../pushes/push-payload.mapper.js';
import { DirectoryClient } from '@gitforge/platform';


/** Reads one commit as a webhook PayloadCommit (Gitea's convert.ToPayloadCommit), through GitService. */
@Injectable()
export class HookCommitReader {
  constructor(
    private readonly git: GitService,
    private readonly directory: DirectoryClient,
  ) {}

  /**
   * The commit a ref points at: a branch, tag, full ref or full-length commit id (Gitea's
   * RepoRefForAPI takes no abbreviated ids); null when nothing matches.
   */
  async resolve(repoId: number, ref: string, objectFormat: string): Promise<string | null> {
    const candidates: string[] = [];
    if (ref.startsWith('refs/') && isValidRefName(ref.slice(5))) candidates.push(ref);
    else if (isValidRefName(ref)) candidates.push(`refs/heads/${ref}`, `refs/tags/${ref}`);
    if (new RegExp(`^[0-9a-f]{${objectFormat === 'sha256' ? 64 : 40}}$`).test(ref)) candidates.push(ref);
    for (const candidate of candidates) {
      // Candidates are validated refs or hex ids, never options.
      const r = await this.git.run(repoId, ['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`], { okCodes: [1, 128] });
      const sha = r.stdout.toString().trim();
      if (sha) return sha;
    }
    return null;
  }

  /**
   * The commit as a push payload (and Gitea's status payload, repository.ToAPIPayloadCommit) shows
   * it: with the accounts behind its e-mails and the files it added, removed and modified.
   */
  async payloadCommit(actor: Actor | null, repoId: number, sha: string, htmlUrl: string): Promise<PayloadCommit | null> {
    const commit = await this.git.commitInfo(repoId, sha);
    if (!commit) return null;
    const accounts = await this.directory.usersByEmails(actor, [commit.author.email, commit.committer.email].filter(Boolean));
    return toPayloadCommit(commit, htmlUrl, new Map(accounts.map((a) => [a.email.toLowerCase(), a.login])));
  }

  /**
   * The commit as Gitea's test delivery shows it (convert.ToPayloadCommit): the verification
   * object, and no file lists (added/removed/modified stay null).
   */
  async read(actor: Actor | null, repoId: number, sha: string, htmlUrl: string): Promise<PayloadCommit | null> {
    const commit = await this.payloadCommit(actor, repoId, sha, htmlUrl);
    if (!commit) return null;
    return {
      ...commit,
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
      added: null,
      removed: null,
      modified: null,
    };
  }
}
