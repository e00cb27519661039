import { jest } from '@jest/globals';
import type { ReadPacket, WritePacket } from '@nestjs/microservices';
import { OrgPatterns, type Actor } from '@gitforge/contracts';
import { RequestContexts } from '../context/request-context.js';
import { GitforgeClientProxy } from '../transport/gitforge-client.js';
import { RpcClient } from '../transport/rpc-client.js';
import { DirectoryClient } from './directory.client.js';

/** A transport whose every answer is counted, with a directory version the test sets. */
class CountingProxy extends GitforgeClientProxy {
  epoch: string | null = 'e1';
  writes = 0;
  epochReads = 0;
  failEpochRead = false;
  readonly calls: string[] = [];

  constructor() {
    super(1000);
  }

  async connect(): Promise<void> {}
  async close(): Promise<void> {}
  unwrap<T>(): T {
    return undefined as T;
  }

  protected request(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const pattern = String(packet.pattern);
    this.calls.push(pattern);
    setImmediate(() => callback({ response: { pattern, n: this.calls.length, owner: { login: 'o' } }, isDisposed: true }));
    return () => undefined;
  }

  async directoryEpoch(): Promise<string | null> {
    this.epochReads += 1;
    if (this.failEpochRead) throw new Error('Connection is closed.');
    return this.writes > 0 ? null : this.epoch;
  }

  async directoryWriteStarts(): Promise<void> {
    this.writes += 1;
    this.epoch = `${this.epoch}+`;
  }

  async directoryWriteEnds(): Promise<void> {
    this.writes -= 1;
    this.epoch = `${this.epoch}+`;
  }

  /** A whole write of the directory. */
  async write(): Promise<void> {
    await this.directoryWriteStarts();
    await this.directoryWriteEnds();
  }
}

const actor: Actor = { id: 7, login: 'u', isAdmin: false, scopes: null };

describe(DirectoryClient.name, () => {
  let proxy: CountingProxy;
  let directory: DirectoryClient;
  let rpc: RpcClient;

  beforeEach(() => {
    proxy = new CountingProxy();
    rpc = new RpcClient(proxy);
    directory = new DirectoryClient(rpc);
  });

  it('should reuse an owner access answer while the directory keeps its version, and ask again once it has a new one', async () => {
    const first = await directory.ownerAccess(actor, { owner: 'o' });
    const again = await directory.ownerAccess(actor, { owner: 'o' });
    expect(again).toEqual(first);
    expect(proxy.calls).toEqual([OrgPatterns.access]);

    await proxy.write();
    const after = await directory.ownerAccess(actor, { owner: 'o' });
    expect(after).not.toEqual(first);
    expect(proxy.calls).toEqual([OrgPatterns.access, OrgPatterns.access]);
  });

  it('should keep answers apart by actor and owner', async () => {
    await directory.ownerAccess(actor, { owner: 'o' });
    await directory.ownerAccess(null, { owner: 'o' });
    await directory.ownerAccess({ ...actor, isAdmin: true }, { owner: 'o' });
    await directory.ownerAccess(actor, { ownerId: 3 });
    expect(proxy.calls).toHaveLength(4);
  });

  it('should reuse nothing while the version is unknown', async () => {
    proxy.epoch = null;
    await directory.ownerAccess(actor, { owner: 'o' });
    await directory.ownerAccess(actor, { owner: 'o' });
    expect(proxy.calls).toHaveLength(2);
  });

  it('should hand out a copy each time', async () => {
    const first = await directory.ownerAccess(actor, { owner: 'o' });
    first.owner.login = 'changed by a caller';
    const hit = await directory.ownerAccess(actor, { owner: 'o' });
    expect(hit.owner.login).toBe('o');
    hit.owner.login = 'changed by another caller';
    expect((await directory.ownerAccess(actor, { owner: 'o' })).owner.login).toBe('o');
    expect(proxy.calls).toHaveLength(1);
  });

  it('should neither reuse nor keep anything while a write of the directory is under way', async () => {
    await directory.ownerAccess(actor, { owner: 'o' });
    await proxy.directoryWriteStarts();
    await directory.ownerAccess(actor, { owner: 'o' });
    // Read during the write: not kept, though the version after it is the same as when it was read.
    await directory.ownerAccess(actor, { owner: 'o' });
    expect(proxy.calls).toHaveLength(3);
    await proxy.directoryWriteEnds();
    await directory.ownerAccess(actor, { owner: 'o' });
    await directory.ownerAccess(actor, { owner: 'o' });
    expect(proxy.calls).toHaveLength(4);
  });

  it('should ask org-service when the version cannot be read, and keep nothing', async () => {
    proxy.failEpochRead = true;
    await expect(directory.ownerAccess(actor, { owner: 'o' })).resolves.toMatchObject({ owner: { login: 'o' } });
    proxy.failEpochRead = false;
    await directory.ownerAccess(actor, { owner: 'o' });
    expect(proxy.calls).toHaveLength(2);
  });

  it('should reuse an answer for a few seconds at most, whatever the version says', async () => {
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      await directory.ownerAccess(actor, { owner: 'o' });
      now.mockReturnValue(1_004_000);
      await directory.ownerAccess(actor, { owner: 'o' });
      expect(proxy.calls).toHaveLength(1);
      now.mockReturnValue(1_006_000);
      await directory.ownerAccess(actor, { owner: 'o' });
      expect(proxy.calls).toHaveLength(2);
    } finally {
      now.mockRestore();
    }
  });

  it('should not keep failures', async () => {
    const failing = new (class extends CountingProxy {
      protected override request(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
        this.calls.push(String(packet.pattern));
        setImmediate(() => callback({ err: { code: 'not_found', message: 'user redirect does not exist' } }));
        return () => undefined;
      }
    })();
    const client = new DirectoryClient(new RpcClient(failing));
    await expect(client.ownerAccess(actor, { owner: 'gone' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.ownerAccess(actor, { owner: 'gone' })).rejects.toMatchObject({ code: 'not_found' });
    expect(failing.calls).toHaveLength(2);
  });

  it("should use the request's version until the request calls another service, then read it afresh", async () => {
    await RequestContexts.run({ requestId: 'r', directoryEpoch: 'e1' }, async () => {
      await directory.ownerAccess(actor, { owner: 'o' });
      await directory.ownerAccess(actor, { owner: 'o' });
      // Asking org-service for the answer itself is a read: the request's version still holds.
      expect(proxy.epochReads).toBe(0);
      // Meanwhile the directory changed (the request's version predates it) and the request
      // calls a service that might have changed it: from then on the version is read afresh.
      await proxy.write();
      await rpc.call('repos.get', { actor });
      await directory.ownerAccess(actor, { owner: 'o' });
      expect(proxy.epochReads).toBe(1);
      expect(proxy.calls).toEqual([OrgPatterns.access, 'repos.get', OrgPatterns.access]);
    });
  });
});
