import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Lru } from '../git/lru.js';

/** Repositories whose advertisement is kept; each is a few hundred bytes. */
const ENTRIES = 2_000;
/** Anything longer is not a capability list: it is not kept. */
const MAX_BYTES = 16 * 1024;

/** Protocol v2 (`Git-Protocol: version=2`), which every git since 2.26 asks for. */
export const isProtocolV2 = (protocol: string | undefined): boolean => !!protocol && protocol.split(':').includes('version=2');

/**
 * upload-pack's advertisement in protocol v2 lists git's capabilities, not the refs (those
 * come from ls-refs, a request of its own): for a repository it stays the same bytes until a
 * configuration git reads changes (the repository's, the global ones) or the git binary does, and
 * this process keeps its binary. Every clone and fetch over HTTP asks for it first, so keeping it
 * spares them one git process each. An entry is keyed by those files' identity (inode, size,
 * mtime), read again on every use, so an edited config is never answered from an old entry.
 */
export class AdvertisementCache {
  private readonly entries = new Lru<string, { key: string; bytes: Buffer }>(ENTRIES);

  /** `home` is the HOME git runs with (its global config). */
  constructor(private readonly home: string) {}

  /** The kept advertisement for this repository and protocol, if its configs have not changed since. */
  async get(repoPath: string, protocol: string): Promise<{ bytes: Buffer | undefined; key: string }> {
    const key = await this.configKey(repoPath);
    const hit = this.entries.get(`${repoPath}\0${protocol}`);
    return { bytes: hit?.key === key ? hit.bytes : undefined, key };
  }

  /** Keeps what git answered under the key read before it ran (a config changed meanwhile makes the next `get` miss). */
  set(repoPath: string, protocol: string, key: string, bytes: Buffer): void {
    if (bytes.length <= MAX_BYTES) this.entries.set(`${repoPath}\0${protocol}`, { key, bytes });
  }

  private async configKey(repoPath: string): Promise<string> {
    const files = [join(repoPath, 'config'), join(this.home, '.gitconfig'), join(this.home, '.config', 'git', 'config')];
    const ids = await Promise.all(
      files.map((f) =>
        stat(f, { bigint: true }).then(
          (s) => `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`,
          () => '-',
        ),
      ),
    );
    return ids.join('|');
  }
}
