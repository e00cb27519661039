import { readFile, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { Lru } from '@gitforge/platform';

/** Repositories whose advertisement is kept; each is a few hundred bytes. */
const ENTRIES = 2_000;
/** Anything longer is not a capability list: it is not kept. */
export const MAX_ADVERTISEMENT_BYTES = 16 * 1024;
/** A file's identity where there is no file. */
const MISSING = '-';

/** Protocol v2 (`Git-Protocol: version=2`), which every git since 2.26 asks for. */
export const isProtocolV2 = (protocol: string | undefined): boolean => !!protocol && protocol.split(':').includes('version=2');

/**
 * upload-pack's advertisement in protocol v2 lists git's capabilities, not the refs (those
 * come from ls-refs, a request of its own), and git reads no other part of `Git-Protocol` for
 * it: for a repository it stays the same bytes until the git binary or a configuration git
 * reads changes (the repository's, the global ones). Every clone and fetch over HTTP asks for it
 * first, so keeping it spares them one git process each.
 *
 * An entry is keyed by the identity (inode, size, times) of the binary and of those config files,
 * read again on every use, so an upgraded git or an edited config is never answered from an old
 * entry. Not kept: an answer with a `session-id` (transfer.advertiseSID, one per process), and
 * one read while a config includes other files (their edits would not show in the key).
 */
export class AdvertisementCache {
  private readonly entries = new Lru<string, { key: string; bytes: Buffer }>(ENTRIES);

  /** `home` is the HOME git runs with (its global config); `bin` and `path` how it is found. */
  constructor(
    private readonly home: string,
    private readonly bin: string,
    private readonly path: string,
  ) {}

  /** The kept advertisement for this repository, if nothing it depends on has changed since; `key` is for {@link set}. */
  async get(repoPath: string): Promise<{ bytes: Buffer | undefined; key: string }> {
    const key = await this.identity(repoPath);
    const hit = this.entries.get(repoPath);
    return { bytes: hit?.key === key ? hit.bytes : undefined, key };
  }

  /** Keeps what git answered under the key read before it ran (a change meanwhile makes the next `get` miss). */
  async set(repoPath: string, key: string, bytes: Buffer): Promise<void> {
    if (bytes.length > MAX_ADVERTISEMENT_BYTES || bytes.includes('session-id=')) return;
    const configs = await Promise.all(this.configs(repoPath).map((f) => readFile(f, 'utf8').catch(() => '')));
    if (configs.some((text) => /^\s*\[\s*include/im.test(text))) return;
    this.entries.set(repoPath, { key, bytes });
  }

  private configs(repoPath: string): string[] {
    return [join(repoPath, 'config'), join(this.home, '.gitconfig'), join(this.home, '.config', 'git', 'config')];
  }

  private async identity(repoPath: string): Promise<string> {
    const ids = await Promise.all([this.binaryId(), ...this.configs(repoPath).map(fileId)]);
    return ids.join('|');
  }

  /** The identity of the git binary as the spawn finds it: the configured path, or the first one on PATH. */
  private async binaryId(): Promise<string> {
    if (isAbsolute(this.bin) || this.bin.includes('/')) return fileId(this.bin);
    for (const dir of this.path.split(delimiter)) {
      const id = await fileId(join(dir, this.bin));
      if (id !== MISSING) return id;
    }
    return MISSING;
  }
}

async function fileId(path: string): Promise<string> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return MISSING;
  }
}
