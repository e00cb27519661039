import { Injectable } from '@nestjs/common';
import { formatTime, isValidRefName, type PayloadCommit } from '@gitforge/contracts';
import { GitService } from '../git/git.service.js';

const SHA = /^[0-9a-f]{4,64}$/;

/** Reads one commit as a webhook PayloadCommit (Gitea's convert.ToPayloadCommit), through GitService. */
@Injectable()
export class HookCommitReader {
  constructor(private readonly git: GitService) {}

  /** The commit a ref points at: a branch, tag, full ref or commit id; null when nothing matches. */
  async resolve(repoId: number, ref: string): Promise<string | null> {
    const candidates: string[] = [];
    if (ref.startsWith('refs/') && isValidRefName(ref.slice(5))) candidates.push(ref);
    else if (isValidRefName(ref)) candidates.push(`refs/heads/${ref}`, `refs/tags/${ref}`);
    if (SHA.test(ref)) candidates.push(ref);
    for (const candidate of candidates) {
      // Candidates are validated refs or hex ids, never options.
      const r = await this.git.run(repoId, ['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`], { okCodes: [1, 128] });
      const sha = r.stdout.toString().trim();
      if (sha) return sha;
    }
    return null;
  }

  async read(repoId: number, sha: string, htmlUrl: string): Promise<PayloadCommit> {
    const fmt = ['%H', '%an', '%ae', '%cn', '%ce', '%aI', '%B'].join('%x00');
    const out = (await this.git.run(repoId, ['log', '-1', `--format=${fmt}`, sha])).stdout.toString();
    const [id = sha, authorName = '', authorEmail = '', committerName = '', committerEmail = '', authored = '', ...message] = out.split('\0');
    const files = await this.changedFiles(repoId, id);
    return {
      id,
      message: message.join('\0').replace(/\n$/, ''),
      url: `${htmlUrl}/commit/${id}`,
      author: { name: authorName, email: authorEmail, username: '' },
      committer: { name: committerName, email: committerEmail, username: '' },
      verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', signer: null, payload: '' },
      timestamp: authored ? authored.replace(/\.\d+/, '') : formatTime(null),
      ...files,
    };
  }

  private async changedFiles(repoId: number, sha: string): Promise<Pick<PayloadCommit, 'added' | 'removed' | 'modified'>> {
    const out = (await this.git.run(repoId, ['diff-tree', '--no-commit-id', '--name-status', '--no-renames', '-r', '--root', '-z', sha])).stdout
      .toString()
      .split('\0');
    const result = { added: [] as string[], removed: [] as string[], modified: [] as string[] };
    for (let i = 0; i + 1 < out.length; i += 2) {
      const status = out[i]!;
      const path = out[i + 1]!;
      if (status === 'A') result.added.push(path);
      else if (status === 'D') result.removed.push(path);
      else if (status) result.modified.push(path);
    }
    return result;
  }
}
