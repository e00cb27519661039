import type { FastifyRequest } from 'fastify';
import { ContractError, type AuthResult } from '@gitforge/contracts';
import type { RpcClient } from '@gitforge/platform';
import { GatewayConfig } from '../gateway.config.js';
import { Authenticator } from './authenticator.js';

/** org-service's authenticate as a test drives it: each call waits until the test answers it. */
function fakeRpc() {
  const calls: Array<{ body: unknown; answer: (r: AuthResult) => void; fail: (e: unknown) => void }> = [];
  const rpc = {
    call: (_pattern: string, call: { body: unknown }) => new Promise((answer, fail) => calls.push({ body: call.body, answer, fail })),
  } as unknown as RpcClient;
  return { rpc, calls };
}

const basic = (user: string, password: string) =>
  ({ headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` }, query: {} }) as unknown as FastifyRequest;

const result: AuthResult = { actor: { id: 1, login: 'ann', isAdmin: false, scopes: null }, basic: true } as AuthResult;

const settle = () => new Promise((r) => setImmediate(r));

describe(Authenticator.name, () => {
  it('should verify credentials that many requests bring at once a single time, and share the answer', async () => {
    const { rpc, calls } = fakeRpc();
    const auth = new Authenticator(rpc, new GatewayConfig());
    const pending = Array.from({ length: 16 }, () => auth.authenticate(basic('ann', 'secret')));
    await settle();
    expect(calls).toHaveLength(1);
    calls[0]!.answer(result);
    await expect(Promise.all(pending)).resolves.toEqual(Array.from({ length: 16 }, () => result));
    // Then from the cache.
    await expect(auth.authenticate(basic('ann', 'secret'))).resolves.toEqual(result);
    expect(calls).toHaveLength(1);
  });

  it('should share a refusal with every waiter, keep none, and verify other credentials on their own', async () => {
    const { rpc, calls } = fakeRpc();
    const auth = new Authenticator(rpc, new GatewayConfig());
    const wrong = [auth.authenticate(basic('ann', 'wrong')), auth.authenticate(basic('ann', 'wrong'))];
    const other = auth.authenticate(basic('bob', 'secret'));
    await settle();
    expect(calls).toHaveLength(2);
    calls[0]!.fail(new ContractError('unauthenticated', 'user does not exist'));
    calls[1]!.answer(result);
    for (const p of wrong) await expect(p).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(other).resolves.toEqual(result);
    const again = auth.authenticate(basic('ann', 'wrong'));
    await settle();
    expect(calls).toHaveLength(3);
    calls[2]!.fail(new ContractError('unauthenticated', 'user does not exist'));
    await expect(again).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
