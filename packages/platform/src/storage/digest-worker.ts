// A worker thread behind DigestThread (digests.ts): it keeps one set of hashes per open stream
// and acknowledges each shared slab of bytes once it is hashed, so the sender reuses a fixed set.
import { createHash, type Hash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import type { DigestReply, DigestRequest } from './digests.js';

const port = parentPort;
if (!port) throw new Error('digest-worker runs as a worker thread');

const open = new Map<number, Hash[]>();

port.on('message', (m: DigestRequest) => {
  switch (m.op) {
    case 'open':
      open.set(m.id, m.algorithms.map((a) => createHash(a)));
      return;
    case 'data': {
      const bytes = new Uint8Array(m.bytes, 0, m.length);
      for (const h of open.get(m.id) ?? []) h.update(bytes);
      // This worker is done with the slab.
      port.postMessage({ op: 'ack', id: m.id, slab: m.slab } satisfies DigestReply);
      return;
    }
    case 'end': {
      const hashes = open.get(m.id) ?? [];
      open.delete(m.id);
      port.postMessage({ op: 'digests', id: m.id, hex: hashes.map((h) => h.digest('hex')) } satisfies DigestReply);
      return;
    }
    case 'abort':
      open.delete(m.id);
      return;
  }
});
