import type { LinkFormatter } from './general.js';

/** Go's html.EscapeString. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;');
}

/** Gitea's htmlLinkFormatter (telegram and matrix messages). */
export const htmlLinkFormatter: LinkFormatter = (url, text) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
