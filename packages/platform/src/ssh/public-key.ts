import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';
import ssh2 from 'ssh2';
import { ContractError } from '@gitforge/contracts';

/**
 * Smallest accepted size in bits per key family (Gitea's `[ssh.minimum_key_sizes]`). Families
 * absent from the table are refused: Gitea's defaults drop DSA. RSA follows issue 13 (2048 bits)
 * rather than Gitea's 3071, so the keys `ssh-keygen -t rsa` made for years stay usable.
 */
export const MINIMUM_KEY_SIZES: Readonly<Record<string, number>> = Object.freeze({
  ed25519: 256,
  'ed25519-sk': 256,
  ecdsa: 256,
  'ecdsa-sk': 256,
  rsa: 2048,
});

/** A public key as Gitea stores it: one OpenSSH line and its SHA256 fingerprint. */
export interface SshPublicKey {
  /** The algorithm name on the wire, e.g. `ssh-ed25519`. */
  type: string;
  /** Gitea's key family (`ed25519`, `ecdsa`, `rsa`), the key of MINIMUM_KEY_SIZES. */
  family: string;
  bits: number;
  /** `type base64 [comment]`: the content Gitea keeps and answers. */
  content: string;
  /** `SHA256:` and the unpadded base64 of the blob's SHA-256, as `ssh-keygen -lf` prints it. */
  fingerprint: string;
  /** The key blob (RFC 4253 encoding). */
  blob: Buffer;
}

const FAMILIES: Readonly<Record<string, string>> = {
  'ssh-ed25519': 'ed25519',
  'ecdsa-sha2-nistp256': 'ecdsa',
  'ecdsa-sha2-nistp384': 'ecdsa',
  'ecdsa-sha2-nistp521': 'ecdsa',
  'ssh-rsa': 'rsa',
  'ssh-dss': 'dsa',
  'sk-ssh-ed25519@openssh.com': 'ed25519-sk',
  'sk-ecdsa-sha2-nistp256@openssh.com': 'ecdsa-sk',
};
const ECDSA_BITS: Readonly<Record<string, number>> = {
  'ecdsa-sha2-nistp256': 256,
  'ecdsa-sha2-nistp384': 384,
  'ecdsa-sha2-nistp521': 521,
};

const SSH2_START = '---- BEGIN SSH2 PUBLIC KEY ----';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Gitea's 422 for key content it cannot use (HandleCheckKeyStringError). */
const invalidKey = (reason: string): ContractError =>
  new ContractError('unprocessable', `Invalid key content: ${reason}`);

/** `SHA256:` + unpadded base64 of the blob's SHA-256 (Go's ssh.FingerprintSHA256). */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * Gitea's CheckPublicKeyString: accepts a key in OpenSSH form (`type base64 comment`, line breaks
 * removed as Gitea does for pasted keys), RFC 4716 (`---- BEGIN SSH2 PUBLIC KEY ----`) or PEM, checks
 * the blob decodes to exactly one key of its announced type and a large enough size, and answers
 * the normalised line with its fingerprint. Throws a 422 ContractError otherwise; a private key
 * pasted by mistake says so.
 */
export function parseSshPublicKey(
  text: string,
  minimumSizes: Readonly<Record<string, number>> = MINIMUM_KEY_SIZES,
): SshPublicKey {
  const content = text.trim();
  if (content === '') throw invalidKey('empty key');
  if (/PRIVATE KEY/.test(content) || content.startsWith('PuTTY-User-Key-File'))
    throw invalidKey('the provided key is a private key');

  let declaredType = '';
  let base64: string;
  let comment = '';
  if (content.startsWith(SSH2_START)) {
    base64 = ssh2Body(content);
  } else if (content.includes('-----BEGIN')) {
    base64 = pemToBlob(content).toString('base64');
  } else {
    const parts = content.replace(/\r?\n|\r/g, '').split(' ');
    if (parts.length === 1) base64 = parts[0]!;
    else {
      declaredType = parts[0]!;
      base64 = parts[1]!;
      comment = parts.slice(2).join(' ');
    }
  }

  if (!BASE64.test(base64)) throw invalidKey('the key is not valid base64');
  const blob = Buffer.from(base64, 'base64');
  const type = blobType(blob);
  if (declaredType !== '' && declaredType !== type)
    throw invalidKey(`key type and content does not match: ${declaredType} - ${type}`);
  const family = FAMILIES[type];
  if (!family) throw new ContractError('unprocessable', 'Unable to verify key content');

  const bits = family.endsWith('-sk') ? securityKeyBits(type, blob) : libraryKeyBits(type, base64, blob);

  const minimum = minimumSizes[family];
  if (minimum === undefined) throw invalidKey(`key type is not allowed: ${family}`);
  if (bits < minimum) throw invalidKey(`key length is not enough: got ${bits}, needs ${minimum}`);

  const base64Line = blob.toString('base64');
  return {
    type,
    family,
    bits,
    content: `${type} ${base64Line} ${comment}`.trim(),
    fingerprint: sshFingerprint(blob),
    blob,
  };
}

/** RFC 4716 body, read the way Gitea reads it: header lines (with `:`) and their continuations skipped. */
function ssh2Body(content: string): string {
  let body = '';
  let continuation = false;
  for (const line of content.replace(/\r\n|\r/g, '\n').split('\n')) {
    if (continuation || /[:-]/.test(line)) continuation = line.endsWith('\\');
    else body += line.trim();
  }
  return body;
}

/** An SSH wire `string` (RFC 4251): a uint32 length and the bytes. */
function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** An SSH `mpint`: big-endian, no leading zeros, a zero byte in front when the top bit is set. */
function sshMpint(unsigned: Buffer): Buffer {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start++;
  const bytes = unsigned.subarray(start);
  return sshString(bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

const EC_CURVES: Readonly<Record<string, string>> = {
  'P-256': 'nistp256',
  'P-384': 'nistp384',
  'P-521': 'nistp521',
};

/**
 * Gitea converts a PEM public key (PKIX `PUBLIC KEY` or PKCS#1 `RSA PUBLIC KEY`) to its SSH form;
 * node's crypto reads the PEM, and the SSH blob is written from the key's JWK parameters.
 */
function pemToBlob(content: string): Buffer {
  let jwk: JsonWebKey;
  try {
    jwk = createPublicKey(content.replace(/\r\n|\r/g, '\n')).export({ format: 'jwk' });
  } catch (err) {
    throw invalidKey(`failed to parse PEM block containing the public key: ${(err as Error).message}`);
  }
  const b64url = (v: string | undefined): Buffer => Buffer.from(v ?? '', 'base64url');
  if (jwk.kty === 'RSA')
    return Buffer.concat([sshString('ssh-rsa'), sshMpint(b64url(jwk.e)), sshMpint(b64url(jwk.n))]);
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519')
    return Buffer.concat([sshString('ssh-ed25519'), sshString(b64url(jwk.x))]);
  const curve = jwk.kty === 'EC' ? EC_CURVES[jwk.crv ?? ''] : undefined;
  if (curve) {
    const point = Buffer.concat([Buffer.from([4]), b64url(jwk.x), b64url(jwk.y)]);
    return Buffer.concat([sshString(`ecdsa-sha2-${curve}`), sshString(curve), sshString(point)]);
  }
  throw new ContractError('unprocessable', 'Unable to verify key content');
}

/** The algorithm name the blob starts with (a uint32 length and that many bytes). */
function blobType(blob: Buffer): string {
  if (blob.length < 4) throw invalidKey('invalid key format');
  const length = blob.readUInt32BE(0);
  if (length === 0 || blob.length < 4 + length)
    throw invalidKey(`invalid key format: not enough length ${length}`);
  return blob.subarray(4, 4 + length).toString('latin1');
}

/** Reads the key with ssh2 and answers its size. */
function libraryKeyBits(type: string, base64: string, blob: Buffer): number {
  const parsed = ssh2.utils.parseKey(`${type} ${base64}`);
  if (parsed instanceof Error) throw invalidKey(parsed.message);
  const key = Array.isArray(parsed) ? (parsed[0] as ssh2.ParsedKey) : parsed;
  if (key.isPrivateKey()) throw invalidKey('the provided key is a private key');
  // The library re-encodes the fields it read: anything left over in the blob is junk.
  if (!key.getPublicSSH().equals(blob)) throw invalidKey('ssh: trailing junk in public key');
  return keyBits(type, key);
}

/** The SSH `string` at `offset` and the offset after it. */
function readString(blob: Buffer, offset: number): [Buffer, number] {
  if (offset + 4 > blob.length) throw invalidKey('ssh: short read');
  const end = offset + 4 + blob.readUInt32BE(offset);
  if (end > blob.length) throw invalidKey('ssh: short read');
  return [blob.subarray(offset + 4, end), end];
}

/**
 * FIDO security keys (`ssh-keygen -t ed25519-sk|ecdsa-sk`), which Gitea accepts and ssh2 does not
 * read: the key, then the application string (PROTOCOL.u2f). node's crypto checks the key itself.
 */
function securityKeyBits(type: string, blob: Buffer): number {
  let offset = readString(blob, 0)[1];
  let jwk: JsonWebKey;
  if (type === 'sk-ssh-ed25519@openssh.com') {
    const [point, next] = readString(blob, offset);
    if (point.length !== 32) throw invalidKey('ssh: invalid size for Ed25519 public key');
    jwk = { kty: 'OKP', crv: 'Ed25519', x: point.toString('base64url') };
    offset = next;
  } else {
    const [curve, afterCurve] = readString(blob, offset);
    const [point, next] = readString(blob, afterCurve);
    if (curve.toString('latin1') !== 'nistp256' || point.length !== 65 || point[0] !== 4)
      throw invalidKey('ssh: invalid ECDSA public key');
    jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    };
    offset = next;
  }
  const [, end] = readString(blob, offset);
  if (end !== blob.length) throw invalidKey('ssh: trailing junk in public key');
  try {
    createPublicKey({ key: jwk, format: 'jwk' });
  } catch (err) {
    throw invalidKey(`invalid ssh public key: ${(err as Error).message}`);
  }
  return 256;
}

/** The key's size; Node's crypto loads the key, which also checks an EC point lies on its curve. */
function keyBits(type: string, key: ssh2.ParsedKey): number {
  let loaded;
  try {
    loaded = createPublicKey(key.getPublicPEM());
  } catch (err) {
    throw invalidKey(`invalid ssh public key: ${(err as Error).message}`);
  }
  if (type === 'ssh-ed25519') return 256;
  const ecdsa = ECDSA_BITS[type];
  if (ecdsa !== undefined) return ecdsa;
  const details = loaded.asymmetricKeyDetails;
  return details?.modulusLength ?? 0;
}
