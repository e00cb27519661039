import { signLfsToken, verifyLfsToken } from './lfs-token.js';

describe(verifyLfsToken.name, () => {
  const secret = 's'.repeat(32);
  const claims = { repoId: 3, op: 'upload' as const, userId: 7, exp: 10_000 };

  it('should verify a token it signed until it expires', () => {
    const token = signLfsToken(secret, claims);
    expect(token.startsWith('gflfs.')).toBe(true);
    expect(verifyLfsToken(secret, token, 9_999)).toEqual(claims);
    expect(verifyLfsToken(secret, token, 10_001)).toBeNull();
  });

  it('should refuse a token signed with another secret or altered', () => {
    const token = signLfsToken(secret, claims);
    expect(verifyLfsToken('t'.repeat(32), token, 0)).toBeNull();
    const forged = signLfsToken('t'.repeat(32), { ...claims, repoId: 4 });
    expect(
      verifyLfsToken(
        secret,
        `${forged.slice(0, forged.lastIndexOf('.'))}${token.slice(token.lastIndexOf('.'))}`,
        0,
      ),
    ).toBeNull();
    expect(verifyLfsToken(secret, 'gflfs.x', 0)).toBeNull();
    expect(verifyLfsToken(secret, 'token abc', 0)).toBeNull();
  });
});
