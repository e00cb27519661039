/** Content headers for files served as downloads (repository files, attachments). */

const MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x50, 0x4b, 0x03, 0x04], 'application/zip'],
  [[0x1f, 0x8b, 0x08], 'application/x-gzip'],
];

/** Gitea's typesniffer, reduced: known binary signatures, text when no NUL in the first 1 KiB, else octet-stream. */
export function sniffContentType(data: Buffer): string {
  for (const [bytes, type] of MAGIC) if (bytes.every((b, i) => data[i] === b)) return type;
  return data.subarray(0, 1024).includes(0) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

/** Types a browser may show in place (Gitea's inline rule); anything else is offered as a download. */
export function isInlineType(type: string): boolean {
  return type.startsWith('text/') || type.startsWith('image/') || type === 'application/pdf';
}

const TSPECIALS = '()<>@,;:\\"/[]?=';

/**
 * Go's mime.FormatMediaType for one `filename`, as Gitea writes Content-Disposition: a token as it
 * is, other printable ASCII quoted, anything else (non-ASCII, control characters) only as RFC 2231
 * `filename*=utf-8''…` — a header may not carry those characters raw.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.every((b) => b >= 0x20 && b < 0x7f)) {
    const token = name.length > 0 && [...name].every((c) => c !== ' ' && !TSPECIALS.includes(c));
    return `${kind}; filename=${token ? name : `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"`}`;
  }
  let encoded = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    const escape = b <= 0x20 || b >= 0x7f || c === '*' || c === "'" || c === '%' || TSPECIALS.includes(c);
    encoded += escape ? `%${b.toString(16).toUpperCase().padStart(2, '0')}` : c;
  }
  return `${kind}; filename*=utf-8''${encoded}`;
}
