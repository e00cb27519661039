import type { User } from '@gitforge/contracts';
import { decodeContent, defaultMessage, gitDate, signatures } from './files.service.js';

const doer = { login: 'alice', full_name: 'Alice A', email: 'Alice@Example.com' } as User;
const now = new Date('2025-01-01T00:00:00Z');

describe('file change rules', () => {
  it('should decode base64 strictly, as Go’s StdEncoding', () => {
    expect(decodeContent('aGk=').toString()).toBe('hi');
    expect(decodeContent('aG\nk=').toString()).toBe('hi');
    expect(decodeContent(undefined)).toEqual(Buffer.alloc(0));
    expect(() => decodeContent('a!==')).toThrow('illegal base64 data at input byte 1');
    expect(() => decodeContent('aGk')).toThrow(/illegal base64 data/);
    expect(() => decodeContent('a=Gk')).toThrow(/illegal base64 data/);
  });

  it('should write Gitea’s default commit messages', () => {
    expect(defaultMessage([{ operation: 'create', path: 'a' }])).toBe('Add a');
    expect(
      defaultMessage([
        { operation: 'create', path: 'a' },
        { operation: 'create', path: 'b' },
        { operation: 'rename', path: 'c' },
        { operation: 'upload', path: 'd' },
        { operation: 'delete', path: 'e' },
      ]),
    ).toBe('Add a, b\nUpdate c, d\nDelete e');
  });

  it('should use the signed-in user when neither author nor committer is given', () => {
    const { author, committer } = signatures({}, doer, now);
    expect(author).toEqual({ name: 'Alice A', email: 'Alice@Example.com', when: 1735689600, tz: '+0000' });
    expect(committer).toEqual(author);
  });

  it('should use the one identity given for both', () => {
    expect(signatures({ author: { name: 'Ada', email: 'ada@x' } }, doer, now).committer).toMatchObject({ name: 'Ada', email: 'ada@x' });
    expect(signatures({ committer: { name: 'Bea', email: 'bea@x' } }, doer, now).author).toMatchObject({ name: 'Bea', email: 'bea@x' });
    const both = signatures({ author: { name: 'Ada', email: 'ada@x' }, committer: { name: 'Bea', email: 'bea@x' } }, doer, now);
    expect([both.author.name, both.committer.name]).toEqual(['Ada', 'Bea']);
  });

  it('should take each of name and e-mail from the identity, then the other identity, then the doer', () => {
    expect(signatures({ author: { name: 'Only A Name' } }, doer, now).author).toMatchObject({ name: 'Only A Name', email: 'Alice@Example.com' });
    expect(signatures({ author: { email: 'x@y.z' } }, doer, now).committer).toMatchObject({ name: 'Alice A', email: 'x@y.z' });
    const mixed = signatures({ author: { name: 'A', email: 'a@y.z' }, committer: { name: 'C' } }, doer, now);
    expect(mixed.committer).toMatchObject({ name: 'C', email: 'a@y.z' });
    expect(mixed.author).toMatchObject({ name: 'A', email: 'a@y.z' });
  });

  it('should keep the offset of given dates', () => {
    expect(gitDate('2024-02-03T04:05:06+02:00', now)).toEqual({ when: 1706925906, tz: '+0200' });
    expect(gitDate('2024-02-03T04:05:06Z', now)).toEqual({ when: 1706933106, tz: '+0000' });
    expect(gitDate(undefined, now)).toEqual({ when: 1735689600, tz: '+0000' });
  });

  it("should take Go's zero time, which Go clients send for dates left unset, as now", () => {
    expect(gitDate('0001-01-01T00:00:00Z', now)).toEqual({ when: 1735689600, tz: '+0000' });
    expect(gitDate('1970-01-02T00:00:00Z', now)).toEqual({ when: 86400, tz: '+0000' });
  });
});
