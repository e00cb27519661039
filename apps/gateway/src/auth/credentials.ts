import type { FastifyRequest } from 'fastify';
import type { Credentials } from '@gitforge/contracts';

export interface ExtractedCredentials {
  credentials: Credentials;
  /** The token came from the deprecated `?token=` / `?access_token=` query. */
  fromQuery: boolean;
}

/**
 * Credentials as Gitea reads them: `?token=`/`?access_token=`, `Authorization: token|Bearer <t>`
 * (scheme case-insensitive), or `Authorization: Basic`. Other schemes are anonymous.
 */
export function extractCredentials(request: FastifyRequest): ExtractedCredentials | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.token ?? query?.access_token;
  if (typeof fromQuery === 'string' && fromQuery !== '') {
    return { credentials: { kind: 'token', token: fromQuery }, fromQuery: true };
  }
  const header = request.headers.authorization;
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space <= 0) return undefined;
  const scheme = header.slice(0, space).toLowerCase();
  const value = header.slice(space + 1).trim();
  if (scheme === 'token' || scheme === 'bearer') {
    return value ? { credentials: { kind: 'token', token: value }, fromQuery: false } : undefined;
  }
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const username = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const password = colon >= 0 ? decoded.slice(colon + 1) : '';
    return { credentials: { kind: 'basic', username, password }, fromQuery: false };
  }
  return undefined;
}

/** `?sudo=` or the `Sudo` header. */
export function sudoTarget(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const value = typeof query?.sudo === 'string' ? query.sudo : request.headers.sudo;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The token of an `Authorization: token|Bearer` header only (Gitea's `/token` reads no other form), read as authentication reads it. */
export function headerToken(request: FastifyRequest): string | undefined {
  const extracted = extractCredentials(request);
  return extracted && !extracted.fromQuery && extracted.credentials.kind === 'token' ? extracted.credentials.token : undefined;
}
