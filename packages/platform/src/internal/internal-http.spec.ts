import type { Actor } from '@gitforge/contracts';
import { PlatformConfig } from '../config/config.js';
import { internalSecret, signActor, verifyActor } from './internal-http.js';

const actor: Actor = { id: 3, login: 'alice', isAdmin: false, scopes: ['write:repository'] };
const secret = 'x'.repeat(40);
const scope = 'POST /alice/r.git/git-receive-pack';

describe(verifyActor.name, () => {
  it('should accept what signActor signed, for that request line', () => {
    expect(verifyActor(secret, signActor(secret, actor, scope), scope)).toEqual({ ok: true, actor });
    expect(verifyActor(secret, signActor(secret, null, scope), scope)).toEqual({ ok: true, actor: null });
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
