import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Actor } from '@gitforge/contracts';
import { PlatformConfig } from '../config/config.js';
import { RequestContexts } from '../context/request-context.js';
import { createInternalServer, internalSecret, readBody, sendStream, SIGNED_ACTOR_HEADER, signActor, signedPublicUrl, verifyActor } from './internal-http.js';

const actor: Actor = { id: 3, login: 'alice', isAdmin: false, scopes: ['write:repository'] };
const secret = 'x'.repeat(40);
const scope = 'POST /alice/r.git/git-receive-pack';

describe(verifyActor.name, () => {
  it('should accept what signActor signed, for that request line', () => {
    expect(verifyActor(secret, signActor(secret, actor, scope), scope)).toEqual({ ok: true, actor });
    expect(verifyActor(secret, signActor(secret, null, scope), scope)).toEqual({ ok: true, actor: null });
  });

  it("should carry the gateway's public URL signed, and give it only for a signature that holds", () => {
    const url = '/alice/r/archive/main.zip?path=a';
    const path = '/repos/alice/r/archive/main.zip';
    const signed = signActor(secret, actor, `GET ${path}`, Date.now(), url);
    expect(signedPublicUrl(secret, { method: 'GET', url: `${path}?path=a`, headers: { [SIGNED_ACTOR_HEADER]: signed } })).toBe(url);
    expect(signedPublicUrl(secret, { method: 'HEAD', url: path, headers: { [SIGNED_ACTOR_HEADER]: signed } })).toBeUndefined();
    expect(signedPublicUrl('y'.repeat(40), { method: 'GET', url: path, headers: { [SIGNED_ACTOR_HEADER]: signed } })).toBeUndefined();
    expect(signedPublicUrl(secret, { method: 'GET', url: path, headers: {} })).toBeUndefined();
    // Only a path: never another site.
    const elsewhere = signActor(secret, actor, `GET ${path}`, Date.now(), 'https://example.com/x');
    expect(signedPublicUrl(secret, { method: 'GET', url: path, headers: { [SIGNED_ACTOR_HEADER]: elsewhere } })).toBeUndefined();
    const protocolRelative = signActor(secret, actor, `GET ${path}`, Date.now(), '//example.com/x');
    expect(signedPublicUrl(secret, { method: 'GET', url: path, headers: { [SIGNED_ACTOR_HEADER]: protocolRelative } })).toBeUndefined();
  });

  it('should refuse a forged, re-targeted, stale or missing signature', () => {
    const header = signActor(secret, actor, scope);
    const [payload] = header.split('.');
    const forged = Buffer.from(JSON.stringify({ a: { ...actor, isAdmin: true }, s: scope, t: Date.now() })).toString('base64url');
    expect(verifyActor(secret, `${forged}.${header.split('.')[1]}`, scope)).toEqual({ ok: false });
    expect(verifyActor('y'.repeat(40), header, scope)).toEqual({ ok: false });
    expect(verifyActor(secret, header, 'POST /bob/r.git/git-receive-pack')).toEqual({ ok: false });
    expect(verifyActor(secret, signActor(secret, actor, scope, Date.now() - 600_000), scope)).toEqual({ ok: false });
    expect(verifyActor(secret, `${payload}`, scope)).toEqual({ ok: false });
    expect(verifyActor(secret, undefined, scope)).toEqual({ ok: false });
  });
});

describe(internalSecret.name, () => {
  it('should use the configured secret, make one up for a single process, and demand one for separate processes', () => {
    const configured = Object.assign(new PlatformConfig(), { GITFORGE_INTERNAL_SECRET: secret });
    expect(internalSecret(configured)).toBe(secret);
    const single = new PlatformConfig();
    expect(internalSecret(single)).toHaveLength(64);
    expect(internalSecret(single)).toBe(internalSecret(new PlatformConfig()));
    const separate = Object.assign(new PlatformConfig(), { REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(() => internalSecret(separate)).toThrow('GITFORGE_INTERNAL_SECRET is required');
  });
});

describe(sendStream.name, () => {
  let server: Server;
  let answer: (res: ServerResponse) => Promise<void>;
  let outcome: Promise<unknown>;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200);
      outcome = answer(res).then(
        () => 'sent',
        (err: Error) => err,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Asks for the answer and hangs up after the first bytes. */
  const hangUpEarly = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }, (res) =>
        res.once('data', () => {
          req.destroy();
          resolve();
        }),
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });

  it('should take a client that goes away mid-answer as the end of it, not as a failure', async () => {
    let destroyed = false;
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024));
      },
      destroy(err, callback) {
        destroyed = true;
        callback(err);
      },
    });
    answer = (res) => sendStream(endless, res);
    await hangUpEarly();
    expect(await outcome).toBe('sent');
    expect(destroyed).toBe(true);
  });

  it('should still fail when the source cannot be read', async () => {
    const broken = new Readable({
      read() {
        this.destroy(Object.assign(new Error('disk gone'), { code: 'EIO' }));
      },
    });
    answer = (res) => sendStream(broken, res);
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }, (res) => res.resume().on('close', resolve));
      req.on('error', () => resolve());
      req.end();
    });
    expect(await outcome).toMatchObject({ message: 'disk gone' });
  });

  /** Asks for the answer and reads all of it. */
  const readAll = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port }, (res) => res.resume().on('close', resolve));
      req.on('error', () => resolve());
      req.end();
    });

  it.each([
    ['closes before its end', undefined, 'ERR_STREAM_PREMATURE_CLOSE'],
    ['fails with a reset of its own', Object.assign(new Error('upstream reset'), { code: 'ECONNRESET' }), 'ECONNRESET'],
  ])('should still fail when the source %s, although the answer is cut off then too', async (_case, error, code) => {
    const cut = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(error);
      },
    });
    answer = (res) => sendStream(cut, res);
    await readAll();
    expect(await outcome).toMatchObject({ code });
  });
});

describe(createInternalServer.name, () => {
  let server: Server;
  const seen: Array<string | undefined> = [];

  beforeAll(async () => {
    server = createInternalServer((_req, res) => {
      seen.push(RequestContexts.requestId());
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, headers: Record<string, string> = {}): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });

  it('should run each request under the gateway request id, and a fresh one for a malformed id', async () => {
    await get('/a', { 'x-request-id': '7687fe73-def6-406b-b446-36dd81c33f7b' });
    await get('/b', { 'x-request-id': 'bad id\twith spaces' });
    expect(seen[0]).toBe('7687fe73-def6-406b-b446-36dd81c33f7b');
    expect(seen[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1]).not.toContain(' ');
  });

  it('should read a request line far longer than the 16 KiB Node reads by default', async () => {
    expect(await get(`/${'a'.repeat(40_000)}`)).toBe(200);
  });
});

describe(readBody.name, () => {
  let server: Server;
  let outcome: Promise<string>;
  let settle: (s: string) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      readBody(req, { limit: 10, tooLarge: () => new Error('too large'), idleMs: 200, idle: () => new Error('idle') }).then(
        (body) => settle(`body ${body.toString()}`),
        (err: Error) => settle(err.message),
      );
      res.once('close', () => undefined);
      req.once('end', () => res.end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    outcome = new Promise((resolve) => (settle = resolve));
  });

  /** Sends `parts`, then ends the request unless `end` is false. */
  const send = (parts: string[], end = true): (() => void) => {
    const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: 'POST' });
    req.on('error', () => undefined);
    for (const p of parts) req.write(p);
    if (end) req.end();
    return () => req.destroy();
  };

  it('should read a whole body within its limit', async () => {
    send(['hello', 'world']);
    expect(await outcome).toBe('body helloworld');
  });

  it('should fail past the limit, when the body goes idle, and when the request breaks off', async () => {
    send(['hello', 'world', '!']);
    expect(await outcome).toBe('too large');
    outcome = new Promise((resolve) => (settle = resolve));
    const drop = send(['he'], false);
    expect(await outcome).toBe('idle');
    drop();
    outcome = new Promise((resolve) => (settle = resolve));
    const cut = send(['he'], false);
    await new Promise((r) => setTimeout(r, 50));
    cut();
    // Node reports it as the request's error ('aborted'); the close that follows would say so too.
    expect(['aborted', 'request broke off']).toContain(await outcome);
  });
});
