import type { HookMeta, HookType } from '@gitforge/contracts';
import { discordPayload } from './discord.js';
import { msteamsPayload } from './msteams.js';
import { slackPayload } from './slack.js';

/** gitea and gogs hooks receive Gitea's payload unchanged; the others a service-specific message. */
export const isRawHookType = (type: HookType): boolean => type === 'gitea' || type === 'gogs';

/** The body a chat hook receives for an event, or null when its format does not render the event. */
export function chatPayload(type: HookType, event: string, payload: object, rootUrl: string, meta: HookMeta): object | null {
  switch (type) {
    case 'slack':
      return slackPayload(event, payload, rootUrl, meta);
    case 'discord':
      return discordPayload(event, payload, rootUrl, meta);
    case 'msteams':
      return msteamsPayload(event, payload, rootUrl);
    default:
      return null;
  }
}
