import type { HookMeta, HookType } from '@gitforge/contracts';
import { dingtalkPayload } from './dingtalk.js';
import { discordPayload } from './discord.js';
import { feishuPayload } from './feishu.js';
import { matrixPayload } from './matrix.js';
import { msteamsPayload } from './msteams.js';
import { packagistPayload } from './packagist.js';
import { slackPayload } from './slack.js';
import { telegramPayload } from './telegram.js';
import { wechatworkPayload } from './wechatwork.js';

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
    case 'dingtalk':
      return dingtalkPayload(event, payload, rootUrl);
    case 'telegram':
      return telegramPayload(event, payload, rootUrl);
    case 'feishu':
      return feishuPayload(event, payload, rootUrl);
    case 'matrix':
      return matrixPayload(event, payload, rootUrl, meta);
    case 'wechatwork':
      return wechatworkPayload(event, payload, rootUrl);
    case 'packagist':
      return packagistPayload(event, meta);
    default:
      return null;
  }
}
