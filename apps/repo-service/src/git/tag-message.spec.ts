import { withoutSignature } from './git-objects.js';

describe('withoutSignature (Gitea parsePayloadSignature)', () => {
  it('should keep a message without a signature as it is stored, its newline included', () => {
    expect(withoutSignature('Second\n\nrelease\n')).toBe('Second\n\nrelease\n');
    expect(withoutSignature('')).toBe('');
  });

  it('should cut a signature block and the newline before it', () => {
    const signed = 'v2 notes\n-----BEGIN PGP SIGNATURE-----\n\niQEz\n-----END PGP SIGNATURE-----\n';
    expect(withoutSignature(signed)).toBe('v2 notes');
    expect(withoutSignature('ssh\n-----BEGIN SSH SIGNATURE-----\nU1NI\n-----END SSH SIGNATURE-----\n')).toBe('ssh');
  });

  it('should cut at the last signature block, leaving one quoted in the message', () => {
    const quoted = 'notes\n-----BEGIN PGP SIGNATURE-----\nold\n-----END PGP SIGNATURE-----\nmore';
    expect(withoutSignature(`${quoted}\n-----BEGIN PGP SIGNATURE-----\nsig\n-----END PGP SIGNATURE-----\n`)).toBe(quoted);
  });

  it('should leave a BEGIN line that no END of its kind follows', () => {
    const text = 'quoting\n-----BEGIN PGP SIGNATURE-----\nbut never ended\n';
    expect(withoutSignature(text)).toBe(text);
  });
});
