import { formatTime, type Hook, type HookMeta, type HookTarget } from '@gitforge/contracts';
import { eventsArray, parseSettings } from './hook-events.js';
import type { WebhookEntity } from './webhook.entity.js';

export function parseMeta(json: string): HookMeta {
  try {
    return JSON.parse(json || '{}') as HookMeta;
  } catch {
    return {};
  }
}

/** Gitea's ToHook: neither the secret nor the authorization header leaves; slack hooks show their channel settings in `config`. */
export function toHook(w: WebhookEntity): Hook {
  const config: Record<string, string> = { url: w.url, content_type: w.contentType };
  if (w.type === 'slack') {
    const meta = parseMeta(w.meta);
    config.channel = meta.channel ?? '';
    config.username = meta.username ?? '';
    config.icon_url = meta.icon_url ?? '';
    config.color = meta.color ?? '';
  }
  return {
    id: w.id,
    name: w.name,
    type: w.type,
    branch_filter: w.branchFilter,
    config,
    events: eventsArray(parseSettings(w.events)),
    authorization_header: '',
    active: w.isActive,
    updated_at: formatTime(w.updatedAt),
    created_at: formatTime(w.createdAt),
  };
}

/** What the worker needs of a hook to send to it, `secrets` its secret and authorization header in clear. */
export function toTarget(w: WebhookEntity, secrets: { secret: string; authorizationHeader: string }): HookTarget {
  return {
    id: w.id,
    kind: w.kind,
    type: w.type,
    url: w.url,
    httpMethod: w.httpMethod,
    contentType: w.contentType,
    secret: secrets.secret,
    authorizationHeader: secrets.authorizationHeader,
    meta: parseMeta(w.meta),
    isActive: w.isActive,
    repoId: w.repoId,
    ownerId: w.ownerId,
    updatedAtMs: w.updatedAt.getTime(),
  };
}
