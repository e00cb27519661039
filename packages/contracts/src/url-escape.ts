const SAFE_SEGMENT = /^[A-Za-z0-9._~-]*$/;

/** Go's url.PathEscape: unreserved characters and `$&+=:@` stay, everything else is %-encoded. */
export function pathEscape(segment: string): string {
  if (SAFE_SEGMENT.test(segment)) return segment;
  return encodeURIComponent(segment)
    .replace(/%(24|26|2B|3D|3A|40)/g, (m) => decodeURIComponent(m))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Gitea's util.PathEscapeSegments: each `/`-separated segment path-escaped. */
export function escapePathSegments(path: string): string {
  return path.split('/').map(pathEscape).join('/');
}

/** Go's url.QueryEscape (spaces as `+`). */
export function queryEscape(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Go's html.EscapeString: what Gitea escapes in HTML it writes itself (links in messages and timeline rows). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
}

/** Whether `s` has the shape of the uuids gitforge gives files (attachments, release assets): lower-case hex and dashes. */
export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(s);
}
