import { extname } from 'node:path';
import { unprocessable, type ContractError } from '@gitforge/contracts';
import { sniffContentType } from '@gitforge/platform';

/** How many leading bytes of an upload decide its type (Gitea reads 1 KiB). */
export const SNIFF_BYTES = 1024;

/** Gitea's ErrFileTypeForbidden, answered 422. */
export const forbiddenType = (): ContractError =>
  unprocessable('This file cannot be uploaded or modified due to a forbidden file extension or type.');

/**
 * Gitea's upload.Verify: whether a file may be stored under `name` with these leading bytes.
 * An `.ext` entry matches the name's extension; MIME entries (`type/subtype`, `type/*`) match the
 * sniffed type and are skipped when the bytes are unknown (`head` null, a rename); `*\/*` and an
 * empty list allow everything.
 */
export function isAllowedUpload(allowedTypes: string, name: string, head: Buffer | null): boolean {
  const entries = allowedTypes
    .replaceAll('|', ',')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  if (entries.length === 0 || entries.includes('*/*')) return true;
  const extension = extname(name).toLowerCase();
  const sniffed = head !== null && head.length > 1 ? sniffContentType(head).split(';')[0]!.trim() : null;
  return entries.some((entry) => {
    if (entry.startsWith('.')) return entry === extension;
    if (sniffed === null) return false;
    if (entry.endsWith('/*')) return sniffed.startsWith(entry.slice(0, -1));
    return sniffed === entry;
  });
}
