import { formatTime, type HookDelivery, type HookDeliveryDetail } from '@gitforge/contracts';
import type { HookDeliveryEntity } from './hook-task.entity.js';
import { coarseEvent } from './payloads/webhook-payloads.js';

const parseObject = (json: string): Record<string, string> => {
  try {
    return JSON.parse(json || '{}') as Record<string, string>;
  } catch {
    return {};
  }
};

/** One attempt in GitHub's deliveries shape. */
export function toDelivery(d: HookDeliveryEntity): HookDelivery {
  return {
    id: d.id,
    guid: d.guid,
    delivered_at: formatTime(d.deliveredAt),
    redelivery: d.redelivery,
    duration: d.durationMs / 1000,
    status: d.statusText,
    status_code: d.responseStatus,
    event: coarseEvent(d.eventType),
    action: d.action,
    installation_id: null,
    repository_id: d.repoId,
    throttled_at: null,
    outcome: d.outcome,
    event_type: d.eventType,
  };
}

/** `body`: the request body sent (the record's, or its task's payload when the record has none). */
export function toDeliveryDetail(d: HookDeliveryEntity, body: string): HookDeliveryDetail {
  let payload: unknown = body;
  try {
    payload = JSON.parse(body);
  } catch {
    // not JSON: shown as sent
  }
  return {
    ...toDelivery(d),
    url: d.url,
    request: { headers: parseObject(d.requestHeaders), payload },
    response: { headers: parseObject(d.responseHeaders), payload: d.responseBody },
  };
}
