import type { Comment } from './issue.js';
import type { Repository } from './repo.js';
import type { User } from './user.js';

/** Hook types gitforge delivers (Gitea's names, CreateHookOption's enum); each has its own payload format. */
export const HookTypes = ['gitea', 'gogs', 'slack', 'discord', 'dingtalk', 'telegram', 'msteams', 'feishu', 'matrix', 'wechatwork', 'packagist'] as const;
export type HookType = (typeof HookTypes)[number];

/** Gitea's HookEventType names: what a hook subscribes to and what `X-Gitea-Event-Type` carries. */
export const HookEventTypes = [
  'create',
  'delete',
  'fork',
  'push',
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
  'pull_request_review_approved',
  'pull_request_review_rejected',
  'pull_request_review_comment',
  'pull_request_sync',
  'pull_request_review_request',
  'wiki',
  'repository',
  'release',
  'package',
  'status',
  'workflow_run',
  'workflow_job',
] as const;
export type HookEventType = (typeof HookEventTypes)[number];

/** Where a hook is attached; also the `X-Gitea-Hook-Installation-Target-Type` header. */
export type HookKind = 'repository' | 'organization' | 'user' | 'system' | 'default';

/** Gitea's `Hook` (structs/hook.go). The secret is never returned. */
export class Hook {
  id!: number;
  name!: string;
  type!: string;
  branch_filter!: string;
  config!: Record<string, string>;
  events!: string[];
  authorization_header!: string;
  active!: boolean;
  updated_at!: string;
  created_at!: string;
}

/**
 * Which hooks a request addresses, from the route: a repository's, an organization's, the
 * signed-in user's, or the site's system and default hooks.
 */
export type HookScope =
  | { kind: 'repo'; owner: string; repo: string }
  | { kind: 'org'; org: string }
  | { kind: 'user' }
  | { kind: 'admin' };

/** Route parameters of every hook operation: the scope plus the hook id where there is one. */
export type HookParams = HookScope & { id?: string };

/** Chat-service settings: slack's channel settings, discord's name and icon, matrix's room, packagist's package. */
export interface HookMeta {
  channel?: string;
  username?: string;
  icon_url?: string;
  color?: string;
  homeserver_url?: string;
  room_id?: string;
  /** 1 = m.notice, 2 = m.text (Gitea's MatrixMeta.MessageType). */
  message_type?: string;
  package_url?: string;
}

/** A hook as the webhook worker needs it to deliver (secret included); never sent over HTTP. */
export interface HookTarget {
  id: number;
  kind: HookKind;
  type: HookType;
  url: string;
  httpMethod: string;
  contentType: 'json' | 'form';
  secret: string;
  authorizationHeader: string;
  meta: HookMeta;
  isActive: boolean;
  repoId: number;
  ownerId: number;
  /** Last change (epoch ms): failures before it do not count towards auto-disabling. */
  updatedAtMs: number;
}

/** One query of `hooks.matching`: the event a hook would receive and where it happened. */
export interface HookMatchQuery {
  event: HookEventType;
  repoId: number;
  ownerId: number;
  /** The full ref a push/create/delete concerns (a branch's or a tag's); filters by `branch_filter`. */
  ref: string | null;
}

/**
 * One delivery attempt, in GitHub's deliveries shape (Gitea's API has none). `guid` is the
 * `X-Gitea-Delivery` value, shared by the retries and redeliveries of one event.
 */
export class HookDelivery {
  id!: number;
  guid!: string;
  delivered_at!: string;
  redelivery!: boolean;
  /** Seconds. */
  duration!: number;
  /** `OK`, `Invalid HTTP Response: 500`, `Timed out`, `Refused: …`, … */
  status!: string;
  /** 0 when no response arrived. */
  status_code!: number;
  event!: string;
  action!: string | null;
  installation_id!: number | null;
  repository_id!: number | null;
  throttled_at!: string | null;
  /** gitforge: `success`, `failure` (retried while attempts remain) or `refused` (by the SSRF guard; never retried). */
  /** `sending`: the attempt started and no answer is recorded yet (or its worker died mid-send). */
  outcome!: 'sending' | 'success' | 'failure' | 'refused';
  /** gitforge: the hook event type (`X-Gitea-Event-Type`). */
  event_type!: string;
}

export class HookDeliveryDetail extends HookDelivery {
  url!: string;
  request!: { headers: Record<string, string>; payload: unknown };
  response!: { headers: Record<string, string>; payload: string | null };
}

/** Gitea's `Activity` (structs/activity.go): one feed entry. */
export class Activity {
  id!: number;
  user_id!: number;
  op_type!: string;
  act_user_id!: number;
  act_user!: User | null;
  repo_id!: number;
  repo!: Repository | null;
  comment_id!: number;
  comment!: Comment | null;
  ref_name!: string;
  is_private!: boolean;
  content!: string;
  created!: string;
}
