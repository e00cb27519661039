import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import ssh2 from 'ssh2';
import { ContractError } from '@gitforge/contracts';
import { parseSshPublicKey, sshFingerprint } from './public-key.js';

/** Made by `ssh-keygen -t ed25519 -C me@x`; `ssh-keygen -lf` printed the fingerprint below. */
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKnKNXC9JQtfx7iEwdAo10UhCU0tOkgGFUPvCG3X6Z5k me@x';
const ED25519_FINGERPRINT = 'SHA256:CcinE0dnLYKpgV9bjYFGHwSBpxdJrbQj0iHw32s7kWE';
/** `ssh-keygen -t ecdsa -b 384`, and its `ssh-keygen -lf` fingerprint. */
const ECDSA384 =
  'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBFJIaKrQX0IJH/qK/fUiBKxu/B4XAeRL5ZsbAeVyeosKYK8Z6oPKvdhWR/IEdinKD+xBmT8Tn22JF+D133KP9tYr9dP4SnQfB/Rj9JWS7YMKPiU059KfxtZ3biXIvkS/9w== root@vm';
const ECDSA384_FINGERPRINT = 'SHA256:+A9I9XejTvptwtJ8dfIstrXbGBalH8VDvcjJK5eqd90';

/** ssh2's generator writes OpenSSH lines; `bits` is ignored for ed25519. */
const generated = (type: 'ed25519' | 'ecdsa' | 'rsa', bits?: 256 | 384 | 521 | 1024 | 2048 | 4096): { public: string; private: string } =>
  type === 'ed25519'
    ? ssh2.utils.generateKeyPairSync('ed25519', { comment: 'test' })
    : type === 'ecdsa'
      ? ssh2.utils.generateKeyPairSync('ecdsa', { bits: (bits ?? 256) as 256 | 384 | 521, comment: 'test' })
      : ssh2.utils.generateKeyPairSync('rsa', { bits: bits ?? 2048, comment: 'test' });

function rejection(text: string): string {
  try {
    parseSshPublicKey(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ContractError);
    expect((err as ContractError).code).toBe('unprocessable');
    return (err as ContractError).message;
  }
  throw new Error('the key was accepted');
}

describe(parseSshPublicKey.name, () => {
  it('should answer the fingerprint ssh-keygen prints for an ed25519 key, keeping its comment', () => {
    const key = parseSshPublicKey(`  ${ED25519}\n`);
    expect(key).toMatchObject({
      type: 'ssh-ed25519',
      family: 'ed25519',
      bits: 256,
      content: ED25519,
      fingerprint: ED25519_FINGERPRINT,
    });
  });

  it('should answer the fingerprint ssh-keygen prints for an ecdsa key', () => {
    expect(parseSshPublicKey(ECDSA384)).toMatchObject({
      family: 'ecdsa',
      bits: 384,
      fingerprint: ECDSA384_FINGERPRINT,
    });
  });

  it.each([
    ['ed25519', 256, 'ssh-ed25519', 256],
    ['ecdsa', 256, 'ecdsa-sha2-nistp256', 256],
    ['ecdsa', 384, 'ecdsa-sha2-nistp384', 384],
    ['ecdsa', 521, 'ecdsa-sha2-nistp521', 521],
    ['rsa', 2048, 'ssh-rsa', 2048],
    ['rsa', 4096, 'ssh-rsa', 4096],
  ] as const)('should accept %s keys (%s bits)', (family, bits, type, size) => {
    const line = generated(family, bits).public;
    const key = parseSshPublicKey(line);
    expect(key).toMatchObject({ type, bits: size, content: line.trim() });
    expect(key.fingerprint).toBe(sshFingerprint(Buffer.from(line.split(' ')[1]!, 'base64')));
  });

  it('should accept a key without a comment, and one without its type (read from the blob)', () => {
    const [type, base64] = ED25519.split(' ');
    expect(parseSshPublicKey(`${type} ${base64}`).content).toBe(`${type} ${base64}`);
    expect(parseSshPublicKey(base64!).content).toBe(`${type} ${base64}`);
  });

  it('should accept an RFC 4716 (SSH2) public key, as ssh-keygen -e writes it', () => {
    const [, base64] = ED25519.split(' ');
    const ssh2Form = [
      '---- BEGIN SSH2 PUBLIC KEY ----',
      'Comment: "256-bit ED25519, converted by root@vm from OpenSSH"',
      base64!.slice(0, 40),
      base64!.slice(40),
      '---- END SSH2 PUBLIC KEY ----',
    ].join('\n');
    expect(parseSshPublicKey(ssh2Form)).toMatchObject({
      content: `ssh-ed25519 ${base64}`,
      fingerprint: ED25519_FINGERPRINT,
    });
  });

  it.each(['ed25519', 'ec', 'rsa'] as const)(
    'should accept a PEM public key (%s) with the fingerprint of its SSH form',
    (type) => {
      const { publicKey } =
        type === 'ec'
          ? generateKeyPairSync('ec', { namedCurve: 'P-384' })
          : type === 'rsa'
            ? generateKeyPairSync('rsa', { modulusLength: 2048 })
            : generateKeyPairSync('ed25519');
      const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
      const key = parseSshPublicKey(pem);
      // The same key in OpenSSH form has the same fingerprint, and reads back as the PEM's key.
      expect(parseSshPublicKey(key.content).fingerprint).toBe(key.fingerprint);
      const back = ssh2.utils.parseKey(key.content) as ssh2.ParsedKey;
      expect(createPublicKey(back.getPublicPEM()).equals(publicKey)).toBe(true);
      if (type === 'rsa') {
        const pkcs1 = publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;
        expect(parseSshPublicKey(pkcs1).fingerprint).toBe(key.fingerprint);
      }
    },
  );

  it('should accept FIDO security keys (ed25519-sk, ecdsa-sk) and refuse one with junk after its application', () => {
    const str = (b: Buffer | string): Buffer => {
      const bytes = Buffer.from(b);
      return Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
    };
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const edBlob = Buffer.concat([
      str('sk-ssh-ed25519@openssh.com'),
      str(Buffer.from(ed.x!, 'base64url')),
      str('ssh:'),
    ]);
    const point = Buffer.concat([
      Buffer.from([4]),
      Buffer.from(ec.x!, 'base64url'),
      Buffer.from(ec.y!, 'base64url'),
    ]);
    const ecBlob = Buffer.concat([
      str('sk-ecdsa-sha2-nistp256@openssh.com'),
      str('nistp256'),
      str(point),
      str('ssh:'),
    ]);
    expect(
      parseSshPublicKey(`sk-ssh-ed25519@openssh.com ${edBlob.toString('base64')} yubikey`),
    ).toMatchObject({
      family: 'ed25519-sk',
      bits: 256,
      fingerprint: sshFingerprint(edBlob),
    });
    expect(
      parseSshPublicKey(`sk-ecdsa-sha2-nistp256@openssh.com ${ecBlob.toString('base64')}`),
    ).toMatchObject({ family: 'ecdsa-sk' });
    const junk = Buffer.concat([edBlob, Buffer.from('x')]).toString('base64');
    expect(rejection(`sk-ssh-ed25519@openssh.com ${junk}`)).toBe(
      'Invalid key content: ssh: trailing junk in public key',
    );
    const offCurve = Buffer.concat([
      str('sk-ecdsa-sha2-nistp256@openssh.com'),
      str('nistp256'),
      str(Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)])),
      str('ssh:'),
    ]);
    expect(rejection(`sk-ecdsa-sha2-nistp256@openssh.com ${offCurve.toString('base64')}`)).toMatch(
      /^Invalid key content: /,
    );
  });

  it('should refuse an RSA key under 2048 bits, saying how long it is', () => {
    expect(rejection(generated('rsa', 1024).public)).toBe(
      'Invalid key content: key length is not enough: got 1024, needs 2048',
    );
  });

  it('should refuse a private key pasted by mistake, saying it is private', () => {
    expect(rejection(generated('ed25519').private)).toBe(
      'Invalid key content: the provided key is a private key',
    );
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs1',
      format: 'pem',
    }) as string;
    expect(rejection(pem)).toBe('Invalid key content: the provided key is a private key');
  });

  it('should refuse trailing junk inside the key blob', () => {
    const [type, base64, comment] = ED25519.split(' ');
    const withJunk = Buffer.concat([Buffer.from(base64!, 'base64'), Buffer.from('junk')]).toString('base64');
    expect(rejection(`${type} ${withJunk} ${comment}`)).toBe(
      'Invalid key content: ssh: trailing junk in public key',
    );
  });

  it('should refuse junk glued to the base64, a type that does not match, and garbage', () => {
    const [type, base64] = ED25519.split(' ');
    expect(rejection(`${type} ${base64}xyz`)).toMatch(/^Invalid key content: /);
    expect(rejection(`ssh-rsa ${base64}`)).toBe(
      'Invalid key content: key type and content does not match: ssh-rsa - ssh-ed25519',
    );
    expect(rejection('not a key at all')).toMatch(/^Invalid key content: /);
    expect(rejection('   ')).toBe('Invalid key content: empty key');
  });

  it('should refuse an ed25519 blob whose key is cut short', () => {
    const [type, base64] = ED25519.split(' ');
    const blob = Buffer.from(base64!, 'base64');
    const short = Buffer.concat([blob.subarray(0, 19), Buffer.from([0, 0, 0, 8]), blob.subarray(23, 31)]);
    expect(rejection(`${type} ${short.toString('base64')}`)).toMatch(/^Invalid key content: /);
  });

  it('should refuse an algorithm Gitea cannot verify', () => {
    const name = Buffer.from('ssh-unknown');
    const blob = Buffer.concat([Buffer.from([0, 0, 0, name.length]), name, Buffer.from([0, 0, 0, 1, 7])]);
    expect(rejection(`ssh-unknown ${blob.toString('base64')}`)).toBe('Unable to verify key content');
  });
});
