/** Raw HTTP against the gateway, for what the git CLI cannot show (headers, partial bodies). */
import { request, type IncomingMessage } from 'node:http';
import type { Layout } from './layout.js';

export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** A complete request and response. */
export function rawRequest(layout: Layout, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: layout.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A pkt-line of git's wire protocol. */
export function pkt(line: string | Buffer): Buffer {
  const payload = typeof line === 'string' ? Buffer.from(line) : line;
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
}
