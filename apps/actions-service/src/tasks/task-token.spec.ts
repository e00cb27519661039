import { generateTaskToken, looksLikeTaskToken, taskTokenMatches } from './task-token.js';

describe('task tokens', () => {
  it('should hand out a 40-hex token and store only a salted hash and its last eight characters', () => {
    const { token, stored } = generateTaskToken();
    expect(looksLikeTaskToken(token)).toBe(true);
    expect(stored.tokenLastEight).toBe(token.slice(-8));
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it('should salt every token differently', () => {
    const a = generateTaskToken();
    const b = generateTaskToken();
    expect(a.token).not.toBe(b.token);
    expect(a.stored.tokenSalt).not.toBe(b.stored.tokenSalt);
  });

  it('should match its own token only', () => {
    const { token, stored } = generateTaskToken();
    expect(taskTokenMatches(stored, token)).toBe(true);
    const sameTail = `${'0'.repeat(32)}${token.slice(-8)}`;
    expect(taskTokenMatches(stored, sameTail)).toBe(false);
    expect(taskTokenMatches(stored, token.toUpperCase())).toBe(false);
    expect(taskTokenMatches({ ...stored, tokenSalt: 'other' }, token)).toBe(false);
  });

  it('should match nothing for a task that never had a token', () => {
    const { token } = generateTaskToken();
    expect(taskTokenMatches({ tokenHash: '', tokenSalt: '', tokenLastEight: '' }, token)).toBe(false);
  });
});
