import { unprocessable } from '@gitforge/contracts';

const COLOR = /^#?(?:[0-9a-f]{6}|[0-9a-f]{3})$/i;

/**
 * A label colour as Gitea's NormalizeColor takes it: spaces around it trimmed, `#` optional,
 * three or six hex digits in any case; stored as `#rrggbb` in lower case. Anything else is 422.
 */
export function parseLabelColor(raw: string): string {
  const color = raw.trim();
  if (!COLOR.test(color)) throw unprocessable(`invalid color: ${color}`);
  const hex = color.replace(/^#/, '').toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}
