import { escapeHtml } from '@gitforge/contracts';
import type { LinkFormatter } from './general.js';

/** Gitea's htmlLinkFormatter (telegram and matrix messages). */
export const htmlLinkFormatter: LinkFormatter = (url, text) => `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
