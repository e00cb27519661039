import { HookEventTypes, type HookEventType } from '@gitforge/contracts';

/**
 * What a hook subscribes to, as Gitea stores it (`webhook.events`): `push_only` and
 * `send_everything` are the legacy whole-hook switches, `choose_events` with a per-event map is
 * what the API always writes.
 */
export interface HookEventSettings {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  events: Record<string, boolean>;
}

/** Keys of the per-event map, in the order Gitea's API fills it (and lists `events`). */
const EVENT_KEYS = [
  'create',
  'push',
  'delete',
  'fork',
  'repository',
  'wiki',
  'release',
  'package',
  'status',
  'workflow_run',
  'workflow_job',
  'issues',
  'issue_assign',
  'issue_label',
  'issue_milestone',
  'issue_comment',
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
] as const;

/** Every event a `send_everything` hook lists (Gitea's AllEvents). */
const ALL_EVENTS: readonly HookEventType[] = HookEventTypes;

/** Group words: `issues` turns on every issue event, `pull_request` every pull request event. */
const ISSUE_EVENTS = new Set(['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment']);
const PULL_EVENTS = new Set([
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
]);

/**
 * The per-event map from a request's `events` (Gitea's updateHookEvents): empty means push only;
 * `issues_only` / `pull_request_only` select just the main event; names compare case-insensitively.
 */
export function settingsFromEvents(requested: string[] | undefined): HookEventSettings {
  const list = (requested && requested.length > 0 ? requested : ['push']).map((e) => e.toLowerCase());
  const has = (name: string): boolean => list.includes(name);
  const events: Record<string, boolean> = {};
  for (const key of EVENT_KEYS) {
    if (key === 'issues') events[key] = has('issues_only') || has('issues');
    else if (key === 'pull_request') events[key] = has('pull_request_only') || has('pull_request');
    else if (ISSUE_EVENTS.has(key)) events[key] = has(key) || has('issues');
    else if (PULL_EVENTS.has(key)) events[key] = has(key) || has('pull_request');
    else events[key] = has(key);
  }
  return { push_only: false, send_everything: false, choose_events: true, events };
}

export function parseSettings(json: string): HookEventSettings {
  const raw = JSON.parse(json || '{}') as Partial<HookEventSettings>;
  return {
    push_only: raw.push_only ?? false,
    send_everything: raw.send_everything ?? false,
    choose_events: raw.choose_events ?? false,
    events: raw.events ?? {},
  };
}

/** Gitea's Webhook.HasEvent: review events are subscribed to through `pull_request_review`. */
export function hasEvent(settings: HookEventSettings, event: HookEventType): boolean {
  if (settings.send_everything) return true;
  if (settings.push_only) return event === 'push';
  const key = event.startsWith('pull_request_review_') && event !== 'pull_request_review_request' ? 'pull_request_review' : event;
  return settings.events[key] === true;
}

/** The `events` a Hook lists. */
export function eventsArray(settings: HookEventSettings): string[] {
  if (settings.send_everything) return [...ALL_EVENTS];
  if (settings.push_only) return ['push'];
  return EVENT_KEYS.filter((k) => settings.events[k] === true);
}
