import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built module, as every replica runs it (`npm test` builds before this project runs). */
const HOST_KEY_MODULE = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/ssh/host-key.js');

/** One replica's start: a process of its own that loads the host key from `dataDir`. */
function replicaStart(dataDir: string): Promise<{ code: number | null; key: string; stderr: string }> {
  const program = `const { loadHostKey } = await import(${JSON.stringify(HOST_KEY_MODULE)});
process.stdout.write((await loadHostKey(${JSON.stringify(dataDir)}, undefined)).toString('base64'));`;
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', program], { stdio: ['ignore', 'pipe', 'pipe'] });
    let key = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (key += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('close', (code) => done({ code, key, stderr }));
  });
}

describe('SSH host key on a shared volume', () => {
  it('should give replicas that start together on a fresh volume one whole key, and leave no temporary file', async () => {
    for (let round = 0; round < 5; round++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'gf-host-key-'));
      try {
        const starts = await Promise.all(Array.from({ length: 8 }, () => replicaStart(dataDir)));
        expect(starts.filter((s) => s.code !== 0).map((s) => s.stderr)).toEqual([]);
        expect(new Set(starts.map((s) => s.key)).size).toBe(1);
        expect(readdirSync(join(dataDir, 'ssh')).sort()).toEqual(['gitforge_host_ed25519_key', 'gitforge_host_ed25519_key.pub']);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });
});
