import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ContractError } from '@gitforge/contracts';
import { createLogger } from '../logging/logger.js';
import { answerFileRequestError, peek } from './upload.js';

/**
 * Sends a request head and part of its body, more of it once the answer is out, and reads nothing
 * for a while (so the answer, and a reset if one comes, arrive before anything is read); answers
 * what the socket gives.
 */
function sendAndReadLate(port: number): Promise<{ text: string; error: string | null }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const timers: NodeJS.Timeout[] = [];
    let text = '';
    socket.on('connect', () => {
      socket.pause();
      socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 1048576\r\n\r\n');
      socket.write(Buffer.alloc(256 * 1024, 1));
      // More of the body after the answer is out, as a client still uploading sends it.
      timers.push(setTimeout(() => socket.write(Buffer.alloc(256 * 1024, 2), () => undefined), 200));
      timers.push(setTimeout(() => socket.resume(), 400));
    });
    socket.on('close', () => timers.forEach(clearTimeout));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n') && text.includes('}')) {
        socket.destroy();
        resolve({ text, error: null });
      }
    });
    socket.on('error', (err) => resolve({ text, error: err.message }));
    socket.on('close', () => resolve({ text, error: null }));
  });
}

describe(answerFileRequestError.name, () => {
  let server: Server;

  beforeAll(async () => {
    // The refusal comes before a byte of the body is read, as a permission or archive check does.
    server = createServer((req, res) => answerFileRequestError(req, res, new ContractError('locked', 'repo is archived'), 'http://forge.test/', createLogger('upload-spec')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('should deliver an answer sent before the body was read to a peer that reads it late, never a reset', async () => {
    const { text, error } = await sendAndReadLate((server.address() as AddressInfo).port);
    expect(error).toBeNull();
    expect(text).toMatch(/^HTTP\/1\.1 423 /);
    expect(text).toContain('"message":"repo is archived"');
  });
});

describe(peek.name, () => {
  /** A file-like source of `chunks` kilobyte chunks, as a download's opened blob. */
  const source = (chunks: number): Readable => {
    let sent = 0;
    return new Readable({
      read() {
        this.push(sent++ < chunks ? Buffer.alloc(1024, sent) : null);
      },
    });
  };

  it('should let go of the source when the stream of all of it is dropped unread, as a HEAD answer does', async () => {
    const content = source(64);
    const { all } = await peek(content, 512);
    all.destroy();
    await once(all, 'close');
    expect(content.destroyed).toBe(true);
  });

  it('should let go of the source when the stream of all of it is cut off midway, as by a client that hangs up', async () => {
    const content = source(1024);
    const { all } = await peek(content, 512);
    let taken = 0;
    const hungUp = new Writable({
      write(_chunk, _enc, callback) {
        callback(++taken === 3 ? Object.assign(new Error('gone'), { code: 'ECONNRESET' }) : null);
      },
    });
    await expect(pipeline(all, hungUp)).rejects.toThrow('gone');
    // Not events.once: `all` emits the sink's error on its way to 'close'.
    if (!all.closed) await new Promise((resolve) => all.once('close', resolve));
    expect(content.destroyed).toBe(true);
  });

  it('should answer the head and every byte when read to the end', async () => {
    const content = source(8);
    const { head, all } = await peek(content, 512);
    const chunks: Buffer[] = [];
    for await (const chunk of all) chunks.push(chunk as Buffer);
    expect(head).toHaveLength(512);
    expect(Buffer.concat(chunks)).toHaveLength(8 * 1024);
    expect(Buffer.concat(chunks).subarray(7 * 1024).every((b) => b === 8)).toBe(true);
  });
});
