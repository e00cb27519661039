import { Agent, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { ContractError, forbidden } from '@gitforge/contracts';
import { answerFileRequestError, createLogger } from '@gitforge/platform';
import { authFailureStatus, streamThrough } from './internal-stream.js';

const portOf = (server: Server): number => (server.address() as AddressInfo).port;

/** Sends an upload's head and the first part of its body, the rest once the answer is in; answers the answer. */
function uploadInParts(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('connect', () => {
      socket.write('POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 524288\r\n\r\n');
      socket.write(Buffer.alloc(64 * 1024, 1));
    });
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (!text.includes('}')) return;
      // A client still uploading goes on sending after the answer.
      socket.write(Buffer.alloc(64 * 1024, 2), () => {
        socket.destroy();
        resolve(text);
      });
    });
    socket.on('error', reject);
  });
}

describe(streamThrough.name, () => {
  let service: Server;
  let gateway: FastifyInstance;
  const seen: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    // The service refuses before it reads a byte of the body, as a permission check does.
    service = createServer((req, res) => {
      seen.push(req.headers);
      answerFileRequestError(req, res, forbidden('user should have permission to write issue'), 'http://forge.test/', createLogger('stream-spec'));
    });
    await new Promise<void>((r) => service.listen(0, '127.0.0.1', r));
    const agent = new Agent({ keepAlive: false });
    gateway = Fastify();
    gateway.addContentTypeParser('*', (_req, _payload, done) => done(null));
    gateway.post('/up', (request, reply) =>
      streamThrough(request, reply, {
        url: `http://127.0.0.1:${portOf(service)}/up`,
        headers: { 'content-type': 'application/octet-stream', 'content-length': request.headers['content-length'] },
        agent,
        service: 'spec',
        badGateway: { contentType: 'text/plain', body: 'bad gateway' },
      }),
    );
    await gateway.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await gateway.close();
    service.closeAllConnections();
    await new Promise((r) => service.close(r));
  });

  it("should pass on a service's early refusal of an upload, asking the service to keep the connection so the rest is drained, not reset", async () => {
    const answer = await uploadInParts(portOf(gateway.server));
    expect(answer).toMatch(/^HTTP\/1\.1 403 /);
    expect(answer).toContain('"message":"user should have permission to write issue"');
    // `Connection: close` made the service close its socket right after the refusal; body bytes
    // still on their way then drew a reset, which a busy gateway read before the answer (a 502).
    expect(seen.at(-1)!.connection).toBe('keep-alive');
  });
});

describe(authFailureStatus.name, () => {
  it('should refuse with 403, ask again with 401, and answer 500 when authentication itself failed', () => {
    expect(authFailureStatus(new ContractError('permission_denied', 'no'))).toBe(403);
    expect(authFailureStatus(new ContractError('unauthenticated', 'who'))).toBe(401);
    expect(authFailureStatus(new ContractError('unavailable', 'down'))).toBe(500);
    expect(authFailureStatus(new Error('boom'))).toBe(500);
  });
});
