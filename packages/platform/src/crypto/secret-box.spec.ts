import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, PlatformConfig } from '../config/config.js';
import { loadSecretKey, SecretBox } from './secret-box.js';

describe(SecretBox.name, () => {
  it('opens what it sealed, with a fresh IV each time', () => {
    const box = new SecretBox('a-secret-key-of-enough-length');
    const a = box.seal('hunter2');
    const b = box.seal('hunter2');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(box.open(a)).toBe('hunter2');
    expect(box.open(box.seal(''))).toBe('');
  });

  it('refuses a value sealed under another key or tampered with', () => {
    const sealed = new SecretBox('a-secret-key-of-enough-length').seal('value');
    expect(() => new SecretBox('another-key-of-enough-length').open(sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => new SecretBox('a-secret-key-of-enough-length').open(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => new SecretBox('short')).toThrow();
  });

  it('keeps a generated key in the data directory when none is configured', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gf-secret-'));
    try {
      const config = loadConfig(PlatformConfig, { GITFORGE_DATA_DIR: dir });
      const key = loadSecretKey(config);
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      expect(loadSecretKey(config)).toBe(key);
      expect(readFileSync(join(dir, 'secret_key'), 'utf8').trim()).toBe(key);
      expect(statSync(join(dir, 'secret_key')).mode & 0o777).toBe(0o600);
      expect(loadSecretKey(loadConfig(PlatformConfig, { GITFORGE_DATA_DIR: dir, GITFORGE_SECRET_KEY: 'configured-key-123' }))).toBe('configured-key-123');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
