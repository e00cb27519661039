import { createHash, createHmac } from 'node:crypto';
import type { HookTarget } from '@gitforge/contracts';
import { chatPayload, isRawHookType } from './hook-types/hook-types.js';
import type { HookHttpRequest } from './hook-sender.js';
import { coarseEvent } from './payloads/webhook-payloads.js';

/** What Go's net/http client sends as User-Agent when the request sets none. */
const GO_USER_AGENT = 'Go-http-client/1.1';

export interface TaskForRequest {
  uuid: string;
  eventType: string;
  /** The Gitea payload as JSON text. */
  payload: string;
}

export interface BuiltRequest extends HookHttpRequest {
  body: string;
  /** The headers as recorded: Authorization masked. */
  recordedHeaders: Record<string, string>;
  /** The JSON that was signed (for form hooks, the value of the `payload` field), as Gitea records it. */
  recordedBody: string;
}

/**
 * The request one hook receives for one task (Gitea's deliver.go): gitea/gogs hooks get the
 * payload as JSON or as a `payload=` form field, chat hooks their own JSON. The signatures are
 * HMACs of the JSON with the hook's secret (of the JSON also for form hooks), empty without a secret.
 * Null when the hook's format does not render this event.
 */
export function buildHookRequest(hook: HookTarget, task: TaskForRequest, rootUrl: string): BuiltRequest | null {
  let json: string;
  let body: string;
  let contentType: string;
  if (isRawHookType(hook.type)) {
    json = task.payload;
    if (hook.contentType === 'form') {
      body = new URLSearchParams({ payload: json }).toString();
      contentType = 'application/x-www-form-urlencoded';
    } else {
      body = json;
      contentType = 'application/json';
    }
  } else {
    const converted = chatPayload(hook.type, task.eventType, JSON.parse(task.payload) as object, rootUrl, hook.meta);
    if (!converted) return null;
    json = JSON.stringify(converted, null, 2);
    body = json;
    contentType = 'application/json';
  }
  let url = hook.url;
  let method = 'POST';
  // Matrix takes the message as a PUT under a transaction id: the body's SHA-1, so a resend is idempotent.
  if (hook.type === 'matrix') {
    method = 'PUT';
    url = `${hook.url}/${createHash('sha1').update(body).digest('hex')}`;
  }
  const sha1 = hook.secret ? createHmac('sha1', hook.secret).update(json).digest('hex') : '';
  const sha256 = hook.secret ? createHmac('sha256', hook.secret).update(json).digest('hex') : '';
  const event = coarseEvent(task.eventType);
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'X-Gitea-Delivery': task.uuid,
    'X-Gitea-Event': event,
    'X-Gitea-Event-Type': task.eventType,
    'X-Gitea-Signature': sha256,
    'X-Gitea-Hook-Installation-Target-Type': hook.kind,
    'X-Gogs-Delivery': task.uuid,
    'X-Gogs-Event': event,
    'X-Gogs-Event-Type': task.eventType,
    'X-Gogs-Signature': sha256,
    'X-Hub-Signature': `sha1=${sha1}`,
    'X-Hub-Signature-256': `sha256=${sha256}`,
    'X-GitHub-Delivery': task.uuid,
    'X-GitHub-Event': event,
    'X-GitHub-Event-Type': task.eventType,
    'X-GitHub-Hook-Installation-Target-Type': hook.kind,
  };
  const recordedHeaders = { ...headers };
  // Gitea sets no User-Agent, so Go's HTTP client sends its own; receivers may match on it. It is
  // added below the request Gitea records, so the recorded headers leave it out as Gitea's do.
  headers['User-Agent'] = GO_USER_AGENT;
  if (hook.authorizationHeader) {
    headers.Authorization = hook.authorizationHeader;
    recordedHeaders.Authorization = '******';
  }
  return { url, method, headers, body, recordedHeaders, recordedBody: json };
}
