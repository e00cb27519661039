import { HookPatterns, type HookTarget } from '@gitforge/contracts';
import type { RpcClient } from '@gitforge/platform';
import { HookTargetsCache } from './hook-targets.cache.js';

const target = (id: number, url: string) => ({ id, url }) as unknown as HookTarget;

describe(HookTargetsCache.name, () => {
  let calls: number[];
  let answers: Array<(t: HookTarget | null) => void>;
  let url: string;
  let cache: HookTargetsCache;

  beforeEach(() => {
    calls = [];
    answers = [];
    url = 'http://one.test/';
    const rpc = {
      call: (pattern: string, req: { body: { hookId: number } }) => {
        expect(pattern).toBe(HookPatterns.target);
        calls.push(req.body.hookId);
        const current = url;
        return new Promise<HookTarget | null>((resolve) => answers.push(() => resolve(target(req.body.hookId, current))));
      },
    } as unknown as RpcClient;
    cache = new HookTargetsCache(rpc);
  });

  const answerAll = () => answers.splice(0).forEach((a) => a(null));

  it('should ask admin-service once for concurrent misses of one hook, and not again within the TTL', async () => {
    const waiting = Array.from({ length: 50 }, () => cache.get(7));
    expect(calls).toEqual([7]);
    answerAll();
    expect((await Promise.all(waiting)).every((t) => t?.url === 'http://one.test/')).toBe(true);
    expect((await cache.get(7))?.url).toBe('http://one.test/');
    expect(calls).toEqual([7]);
  });

  it('should not remember a call under way when the hook is forgotten meanwhile', async () => {
    const before = cache.get(7);
    cache.forget(7);
    url = 'http://two.test/';
    const after = cache.get(7);
    expect(calls).toEqual([7, 7]);
    answerAll();
    expect((await before)?.url).toBe('http://one.test/');
    expect((await after)?.url).toBe('http://two.test/');
    expect((await cache.get(7))?.url).toBe('http://two.test/');
    expect(calls).toEqual([7, 7]);
  });
});
