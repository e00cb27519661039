import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PlatformConfig } from '../config/config.js';
import { createLogger } from '../logging/logger.js';

const log = createLogger('secret-box');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/**
 * Values that must be read back (actions secrets, runner registration tokens) stored encrypted at
 * rest: AES-256-GCM under a key derived from `GITFORGE_SECRET_KEY`. Each value has its own random
 * IV; the tag makes a tampered or foreign value fail to open instead of decrypting to garbage.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('the secret key must be at least 16 characters');
    this.key = createHash('sha256').update(`gitforge-secret-box:${secret}`).digest();
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith(`${VERSION}:`)) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

/**
 * The key SecretBox derives from: `GITFORGE_SECRET_KEY`, or else one made up once and kept in
 * `<GITFORGE_DATA_DIR>/secret_key` (mode 0600), so an embedded install keeps its secrets readable
 * across restarts. Several replicas of one service must share it: set the variable then.
 */
export function loadSecretKey(config: PlatformConfig): string {
  if (config.GITFORGE_SECRET_KEY) return config.GITFORGE_SECRET_KEY;
  const file = join(config.GITFORGE_DATA_DIR, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.GITFORGE_DATA_DIR, { recursive: true });
  const key = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
  } catch (err) {
    // Another process of this installation wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
  if (config.REDIS_URL) log.warn({ file }, 'GITFORGE_SECRET_KEY is not set: generated a secret key in the data directory; replicas need the same key');
  return key;
}
