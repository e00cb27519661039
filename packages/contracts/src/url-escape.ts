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
