import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { HookSender, RESPONSE_BODY_CAP } from './hook-sender.js';
import { HostMatcher } from './host-matcher.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

describe(HookSender.name, () => {
  let server: http.Server;
  let port: number;
  let handler: Handler;
  const hits: Array<{ method: string; url: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hits.push({ method: req.method ?? '', url: req.url ?? '' });
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    hits.length = 0;
  });

  const sender = (allowed: string, timeoutMs = 2000): HookSender => new HookSender(new HostMatcher(allowed), 'GITFORGE_WEBHOOK_ALLOWED_HOSTS', timeoutMs);
  const post = (url: string) => ({ url, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });

  it('should deliver to an allowed address and record status, canonical headers and body', async () => {
    handler = (_req, res, body) => {
      res.setHeader('x-echo-length', String(body.length));
      res.statusCode = 202;
      res.end('accepted');
    };
    const s = sender('loopback');
    const r = await s.send(post(`http://127.0.0.1:${port}/in`));
    s.close();
    expect(r).toMatchObject({ kind: 'response', status: 202, body: 'accepted', headers: expect.objectContaining({ 'X-Echo-Length': '7' }) });
    expect(hits).toEqual([{ method: 'POST', url: '/in' }]);
  });

  it('should send credentials in the URL as basic authentication, unless the hook has its own', async () => {
    const seen: Array<string | undefined> = [];
    handler = (req, res) => {
      seen.push(req.headers.authorization);
      res.end();
    };
    const s = sender('loopback');
    await s.send(post(`http://us%40er:p%3Ass@127.0.0.1:${port}/creds`));
    await s.send({ ...post(`http://user:pass@127.0.0.1:${port}/creds`), headers: { authorization: 'token abc' } });
    s.close();
    expect(seen).toEqual([`Basic ${Buffer.from('us@er:p:ss').toString('base64')}`, 'token abc']);
  });

  it('should join a repeated response header as one recorded value', async () => {
    handler = (_req, res) => {
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end();
    };
    const s = sender('loopback');
    const r = await s.send(post(`http://127.0.0.1:${port}/cookies`));
    s.close();
    expect(r).toMatchObject({ kind: 'response', headers: expect.objectContaining({ 'Set-Cookie': 'a=1,b=2' }) });
  });

  it.each(['127.0.0.1', 'localhost'])('should refuse %s without the loopback allowance, never connecting', async (host) => {
    handler = (_req, res) => res.end();
    const s = sender('external');
    const r = await s.send(post(`http://${host}:${port}/in`));
    s.close();
    expect(r).toMatchObject({ kind: 'refused', message: expect.stringContaining('webhook can only call allowed HTTP servers') });
    expect(hits).toEqual([]);
  });

  it('should reuse the connections of a burst while deliveries keep coming, and close them once idle', async () => {
    // A receiver that never closes idle connections (Go's server without timeouts): what the sender keeps stays open.
    const keepAlive = server.keepAliveTimeout;
    server.keepAliveTimeout = 0;
    const burst = 40;
    let opened = 0;
    const count = (): void => void (opened += 1);
    server.on('connection', count);
    let held: Array<() => void> = [];
    handler = (_req, res) => {
      held.push(() => res.end('ok'));
      // Answered together once all are in: the burst holds as many connections as requests.
      if (held.length === burst) {
        for (const answer of held) answer();
        held = [];
      }
    };
    const idleMs = 300;
    const s = new HookSender(new HostMatcher('loopback'), 'GITFORGE_WEBHOOK_ALLOWED_HOSTS', 10_000, burst, idleMs);
    const open = () => new Promise<number>((resolve, reject) => server.getConnections((err, n) => (err ? reject(err) : resolve(n))));
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(Array.from({ length: burst }, () => s.send(post(`http://127.0.0.1:${port}/burst`))));
        expect(results.every((r) => r.kind === 'response' && r.status === 200)).toBe(true);
      }
      // Three bursts over the same connections: each delivery after the first burst found one open.
      expect(opened).toBe(burst);
      expect(await open()).toBe(burst);
      let connections = burst;
      for (let i = 0; i < 100 && connections > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        connections = await open();
      }
      expect(connections).toBe(0);
    } finally {
      server.off('connection', count);
      s.close();
      server.keepAliveTimeout = keepAlive;
    }
  });

  it('should refuse the cloud metadata address', async () => {
    const s = sender('external,loopback');
    const r = await s.send(post('http://169.254.169.254/latest/meta-data/'));
    s.close();
    expect(r).toMatchObject({ kind: 'refused', message: expect.stringContaining("deny '169.254.169.254(169.254.169.254)'") });
  });

  it('should check each redirect hop again', async () => {
    handler = (_req, res) => {
      res.statusCode = 307;
      res.setHeader('location', 'http://169.254.169.254/steal');
      res.end();
    };
    const s = sender('127.0.0.1/32');
    const r = await s.send(post(`http://127.0.0.1:${port}/redirect`));
    s.close();
    expect(r.kind).toBe('refused');
    expect(hits).toHaveLength(1);
  });

  it('should follow an allowed redirect, continuing a 303 as GET', async () => {
    handler = (req, res) => {
      if (req.url === '/first') {
        res.statusCode = 303;
        res.setHeader('location', '/second');
        res.end();
      } else {
        res.end('done');
      }
    };
    const s = sender('loopback');
    const r = await s.send(post(`http://127.0.0.1:${port}/first`));
    s.close();
    expect(r).toMatchObject({ kind: 'response', status: 200, body: 'done' });
    expect(hits).toEqual([
      { method: 'POST', url: '/first' },
      { method: 'GET', url: '/second' },
    ]);
  });

  it('should give up at the deadline', async () => {
    handler = () => undefined;
    const s = sender('loopback', 200);
    const r = await s.send(post(`http://127.0.0.1:${port}/slow`));
    s.close();
    expect(r.kind).toBe('timeout');
  });

  it('should give up at the deadline while the connection is still being made (a TLS handshake never answered)', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const s = sender('loopback', 200);
    const started = Date.now();
    try {
      const r = await s.send(post(`https://127.0.0.1:${(silent.address() as AddressInfo).port}/`));
      expect(r.kind).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      s.close();
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('should give up at the deadline while a body keeps coming slowly', async () => {
    handler = (_req, res) => {
      res.write('x');
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(drip));
    };
    const s = sender('loopback', 300);
    const started = Date.now();
    const r = await s.send(post(`http://127.0.0.1:${port}/drip`));
    s.close();
    expect(r.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('should keep only the start of a large response body', async () => {
    handler = (_req, res) => res.end('x'.repeat(RESPONSE_BODY_CAP * 3));
    const s = sender('loopback');
    const r = await s.send(post(`http://127.0.0.1:${port}/big`));
    s.close();
    expect(r.kind === 'response' && r.body.length).toBe(RESPONSE_BODY_CAP);
  });

  it('should report a connection error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const unused = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const s = sender('loopback');
    const r = await s.send(post(`http://127.0.0.1:${unused}/`));
    s.close();
    expect(r).toMatchObject({ kind: 'connection', message: expect.stringContaining('ECONNREFUSED') });
  });
});
