import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ssh2 from 'ssh2';

/** Where the generated host key is kept, under the data directory. */
export const HOST_KEY_FILE = join('ssh', 'gitforge_host_ed25519_key');

/**
 * The SSH server's host key: the configured one, else the one generated on the first start and
 * kept in the data directory (so clients' known_hosts stay valid across restarts). Replicas
 * sharing the data volume race safely: each writes its key whole to a file of its own, and a
 * hard link puts it in place only if no other is there yet (the first wins, the others read
 * it); nobody ever reads a key half written.
 */
export async function loadHostKey(dataDir: string, configured: string | undefined): Promise<Buffer> {
  if (configured) return checked(Buffer.from(configured.replace(/\\n/g, '\n')), 'GITFORGE_SSH_HOST_KEY');
  const path = join(dataDir, HOST_KEY_FILE);
  try {
    return checked(await readFile(path), path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const pair = generateHostKey();
  await mkdir(join(dataDir, 'ssh'), { recursive: true, mode: 0o700 });
  const mine = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(mine, pair.private, { flag: 'wx', mode: 0o600 });
    await link(mine, path);
    await writeFile(`${path}.pub`, `${pair.public}\n`, { mode: 0o644 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(mine, { force: true });
  }
  return checked(await readFile(path), path);
}

/**
 * A new ed25519 host key pair that ssh2 itself can read back: about one in four hundred keys
 * its generator writes fails its own parser ("Malformed OpenSSH private key"), so such a key is
 * drawn again rather than stored (stored, it would stop every start of the server).
 */
export function generateHostKey(): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment: 'gitforge host key' });
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}

function checked(key: Buffer, source: string): Buffer {
  const parsed = ssh2.utils.parseKey(key);
  if (parsed instanceof Error || Array.isArray(parsed) || !parsed.isPrivateKey()) {
    throw new Error(
      `${source} is not a private SSH host key${parsed instanceof Error ? `: ${parsed.message}` : ''}`,
    );
  }
  return key;
}

/** The public half in OpenSSH form (`ssh-ed25519 AAAA…`), for logs and known_hosts. */
export function hostPublicKey(key: Buffer): string {
  const parsed = ssh2.utils.parseKey(key) as ssh2.ParsedKey;
  return `${parsed.type} ${parsed.getPublicSSH().toString('base64')}`;
}
