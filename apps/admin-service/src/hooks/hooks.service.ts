import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  HookTypes,
  notFound,
  pageOf,
  refFilterMatches,
  RepoFactPatterns,
  unprocessable,
  type Actor,
  type CreateHookOption,
  type EditHookOption,
  type Hook,
  type HookKind,
  type HookMatchQuery,
  type HookMeta,
  type HookParams,
  type HookTarget,
  type HookType,
  type ListOptions,
  type Page,
  type RepoAccess,
  idFrom,
} from '@gitforge/contracts';
import { createLogger, Database, DirectoryClient, isUniqueViolation, RpcClient } from '@gitforge/platform';
import { hasEvent, parseSettings, settingsFromEvents, type HookEventSettings } from './hook-events.js';
import { HookSecrets } from './hook-secrets.js';
import { parseMeta, toHook, toTarget } from './hook.mapper.js';
import { HooksRepository, type HookOwnerFilter } from './hooks.repository.js';
import type { WebhookEntity } from './webhook.entity.js';

/** Where new hooks of a route go and which existing hooks it addresses. */
interface HookPlace {
  filter: HookOwnerFilter;
  /** Kind of a hook created here (`default` or `system` on /admin/hooks, by `is_system_webhook`). */
  kind: HookKind;
  repoId: number;
  ownerId: number;
}

// Slack's conversation names, with Gitea's optional leading '#'.
const SLACK_CHANNEL = /^#?[a-z0-9_-]{1,80}$/;
const GO_BOOL_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_BOOL_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

function isValidHookUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

@Injectable()
export class HooksService {
  private readonly log = createLogger('hooks');

  constructor(
    private readonly db: Database,
    private readonly hooks: HooksRepository,
    private readonly rpc: RpcClient,
    private readonly secrets: HookSecrets,
    private readonly directory: DirectoryClient,
  ) {}

  /**
   * The route's permission check, in Gitea's order: the repository or organization must be
   * visible (else 404), then the caller must administer it (else 403). User hooks are the
   * caller's own; /admin/hooks is for site admins (checked at the gateway).
   */
  private async place(actor: Actor | null, params: HookParams): Promise<HookPlace> {
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    switch (params.kind) {
      case 'repo': {
        const repo = await this.rpc.call<RepoAccess, { owner: string; repo: string }>(RepoFactPatterns.access, {
          actor,
          params: { owner: params.owner, repo: params.repo },
        });
        if (!repo.permission.admin) throw forbidden('user should be an owner or a collaborator with admin write of a repository');
        return { filter: { repoId: repo.id }, kind: 'repository', repoId: repo.id, ownerId: 0 };
      }
      case 'org': {
        // An old name of a renamed organization: Gitea's orgAssignment redirects (307).
        const owner = await this.directory.ownerInPath(actor, params.org, notFound());
        if (owner.owner.kind !== 'organization' || !owner.visible) throw notFound();
        if (!actor.isAdmin && !owner.isOrgOwner) throw forbidden('Must be an organization owner');
        return { filter: { ownerId: owner.owner.id }, kind: 'organization', repoId: 0, ownerId: owner.owner.id };
      }
      case 'user':
        return { filter: { ownerId: actor.id }, kind: 'user', repoId: 0, ownerId: actor.id };
      case 'admin':
        if (!actor.isAdmin) throw forbidden('user should be the site admin');
        return { filter: { kinds: ['system', 'default'] }, kind: 'default', repoId: 0, ownerId: 0 };
    }
  }

  private hookId(params: HookParams): number {
    const id = idFrom(params.id);
    if (!id) throw notFound();
    return id;
  }

  private async find(place: HookPlace, params: HookParams): Promise<WebhookEntity> {
    const hook = await this.hooks.findOne(place.filter, this.hookId(params));
    if (!hook) throw notFound();
    return hook;
  }

  async list(actor: Actor | null, params: HookParams, options: ListOptions): Promise<Page<Hook>> {
    const place = await this.place(actor, params);
    const [rows, total] = await this.hooks.list(place.filter, options);
    return pageOf(rows.map(toHook), total, options);
  }

  /** Gitea's admin ListHooks: system hooks unless asked for `default` or `all` hooks, a page at a time. */
  async listAdmin(actor: Actor | null, type: string | undefined, options: ListOptions): Promise<Page<Hook>> {
    await this.place(actor, { kind: 'admin' });
    const [rows, total] = await this.hooks.list({ kinds: type === 'default' ? ['default'] : type === 'all' ? ['system', 'default'] : ['system'] }, options);
    return pageOf(rows.map(toHook), total, options);
  }

  async get(actor: Actor | null, params: HookParams): Promise<Hook> {
    return toHook(await this.find(await this.place(actor, params), params));
  }

  async create(actor: Actor | null, params: HookParams, body: CreateHookOption): Promise<Hook> {
    const place = await this.place(actor, params);
    const config = body.config ?? {};
    if (!(HookTypes as readonly string[]).includes(body.type)) throw unprocessable(`Invalid hook type: ${body.type}`);
    for (const key of ['url', 'content_type']) {
      if (!(key in config)) throw unprocessable(`Missing config option: ${key}`);
    }
    if (config.content_type !== 'json' && config.content_type !== 'form') throw unprocessable('Invalid content type');
    if (!isValidHookUrl(config.url!)) throw unprocessable('Invalid url');
    let kind = place.kind;
    const system = config.is_system_webhook;
    if (system !== undefined && system !== '') {
      if (!GO_BOOL_TRUE.includes(system) && !GO_BOOL_FALSE.includes(system)) throw unprocessable('Invalid is_system_webhook value');
      // Only /admin/hooks makes site-wide hooks; elsewhere the key means nothing.
      if (params.kind === 'admin' && GO_BOOL_TRUE.includes(system)) kind = 'system';
    }
    const meta = this.metaFor(body.type as HookType, config, null);
    const now = new Date();
    const id = await this.db.transaction(async (m) => {
      const hook = await this.hooks.insert(m, {
        kind,
        repoId: place.repoId,
        ownerId: place.ownerId,
        name: (body.name ?? '').trim(),
        type: body.type as HookType,
        url: config.url!,
        httpMethod: 'POST',
        contentType: config.content_type as 'json' | 'form',
        secret: this.secrets.seal(config.secret ?? ''),
        events: JSON.stringify(settingsFromEvents(body.events)),
        branchFilter: body.branch_filter ?? '',
        isActive: body.active ?? false,
        meta: JSON.stringify(meta),
        authorizationHeader: this.secrets.seal(body.authorization_header ?? ''),
        secretsSealed: true,
        defaultSourceId: null,
        createdAt: now,
        updatedAt: now,
      });
      return hook.id;
    });
    return toHook((await this.hooks.findById(id))!);
  }

  /**
   * Slack hooks need a valid channel (`channel`, `username`, `icon_url`, `color` from config);
   * discord hooks take `username` and `icon_url` when given. `previous` is the stored meta on edit,
   * kept unless the config names a channel (Gitea rewrites slack settings only then).
   */
  private metaFor(type: HookType, config: Record<string, string>, previous: HookMeta | null): HookMeta {
    if (type === 'slack') {
      if (previous && !('channel' in config)) return previous;
      if (!previous && !('channel' in config)) throw unprocessable('Missing config option: channel');
      const channel = (config.channel ?? '').trim();
      if (!previous && !SLACK_CHANNEL.test(channel)) throw new ContractError('invalid_argument', 'Invalid slack channel name');
      return { channel, username: config.username ?? '', icon_url: config.icon_url ?? '', color: config.color ?? '' };
    }
    if (type === 'discord') {
      const base = previous ?? {};
      return {
        username: config.username ?? base.username ?? '',
        icon_url: config.icon_url ?? base.icon_url ?? '',
      };
    }
    // Gitea's API stores no settings for these (only its web forms do, unvalidated there too);
    // kept when given so such hooks can be delivered at all, and never shown in `config`.
    if (type === 'matrix') {
      const base = previous ?? {};
      return {
        homeserver_url: config.homeserver_url ?? base.homeserver_url ?? '',
        room_id: config.room_id ?? base.room_id ?? '',
        message_type: config.message_type ?? base.message_type ?? '',
      };
    }
    if (type === 'packagist') return { package_url: config.package_url ?? previous?.package_url ?? '' };
    return previous ?? {};
  }

  async edit(actor: Actor | null, params: HookParams, body: EditHookOption): Promise<Hook> {
    const place = await this.place(actor, params);
    const hook = await this.hooks.findOne(place.filter, this.hookId(params));
    // Gitea answers an unknown system hook with a 500 (GetSystemOrDefaultWebhook fails); a 404 here, as for any other hook.
    if (!hook) throw notFound();
    const changes: Partial<WebhookEntity> = {};
    const config = body.config;
    if (config) {
      if ('url' in config) {
        if (!isValidHookUrl(config.url!)) throw unprocessable('Invalid url');
        changes.url = config.url;
      }
      if ('content_type' in config) {
        if (config.content_type !== 'json' && config.content_type !== 'form') throw unprocessable('Invalid content type');
        changes.contentType = config.content_type;
      }
      changes.meta = JSON.stringify(this.metaFor(hook.type, config, parseMeta(hook.meta)));
    }
    // Gitea recomputes the events and overwrites the branch filter and authorization header on every
    // edit; it never changes the secret (its editHook reads no `secret` from the config).
    changes.events = JSON.stringify(settingsFromEvents(body.events));
    changes.branchFilter = body.branch_filter ?? '';
    // A row still in clear (until the start-up pass seals it) keeps its secret, now sealed too.
    Object.assign(changes, this.secrets.sealedCopy(hook), { authorizationHeader: this.secrets.seal(body.authorization_header ?? '') });
    if (body.active !== undefined) changes.isActive = body.active;
    if (body.name !== undefined) changes.name = body.name.trim();
    changes.updatedAt = new Date();
    await this.db.transaction((m) => this.hooks.update(m, hook.id, changes));
    return toHook((await this.hooks.findById(hook.id))!);
  }

  /**
   * Gitea's git hook routes (reqToken, reqAdmin, reqGitHook): a repository admin still needs
   * CanEditGitHook, false for everyone while DISABLE_GIT_HOOKS is set, Gitea's default and the
   * only mode gitforge has (it runs no user-provided git hooks).
   */
  async gitHooks(actor: Actor | null, owner: string, repo: string): Promise<never> {
    await this.place(actor, { kind: 'repo', owner, repo });
    throw forbidden('must be allowed to edit Git hooks');
  }

  async delete(actor: Actor | null, params: HookParams): Promise<void> {
    const hook = await this.find(await this.place(actor, params), params);
    await this.db.transaction((m) => this.hooks.delete(m, hook.id));
  }

  /**
   * The active hooks each event reaches, filtered by subscribed event and branch filter: one list
   * per query, in order. The batch is one read of the hooks its events may reach.
   */
  async matching(queries: HookMatchQuery[]): Promise<HookTarget[][]> {
    // One read for the batch, each hook's settings parsed and its secret opened once for it.
    type Candidate = { hook: WebhookEntity; settings: HookEventSettings; target?: HookTarget | null };
    const ids = (pick: (q: HookMatchQuery) => number): number[] => [...new Set(queries.map(pick).filter((id) => id > 0))];
    const candidates: Candidate[] = (await this.hooks.findActiveFor(ids((q) => q.repoId), ids((q) => q.ownerId))).map((hook) => ({ hook, settings: parseSettings(hook.events) }));
    // What one event reaches: the system's hooks, its repository's, its owner's (as the read asked).
    const reaches = ({ hook }: Candidate, q: HookMatchQuery): boolean =>
      hook.kind === 'system' ||
      (hook.kind === 'repository' && q.repoId > 0 && hook.repoId === q.repoId) ||
      ((hook.kind === 'organization' || hook.kind === 'user') && q.ownerId > 0 && hook.ownerId === q.ownerId);
    return queries.map((query) =>
      candidates
        .filter((c) => reaches(c, query) && hasEvent(c.settings, query.event))
        .filter((c) => query.ref === null || refFilterMatches(c.hook.branchFilter, query.ref))
        .flatMap((c) => (c.target === undefined ? (c.target = this.targetOf(c.hook)) : c.target) ?? []),
    );
  }

  /** A hook as the worker sends to it; null, logged, for one whose secrets do not open (its deliveries wait, the others go). */
  private targetOf(w: WebhookEntity): HookTarget | null {
    try {
      return toTarget(w, this.secrets.open(w));
    } catch (err) {
      this.log.error({ err, hookId: w.id }, "the hook's secret does not open with this GITFORGE_SECRET_KEY; not sending to it");
      return null;
    }
  }

  async target(id: number): Promise<HookTarget | null> {
    const hook = await this.hooks.findById(id);
    return hook ? this.targetOf(hook) : null;
  }

  /**
   * Copies the default hooks a repository lacks. repo-service asks at creation and the webhook
   * worker again with repo.created, possibly at the same moment: the loser of that race meets
   * the unique (repo, source) index and, on the second try, finds the copies made.
   */
  async copyDefaults(repoId: number): Promise<number> {
    try {
      return await this.copyMissingDefaults(repoId);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return this.copyMissingDefaults(repoId);
    }
  }

  private copyMissingDefaults(repoId: number): Promise<number> {
    return this.db.transaction(async (m) => {
      const defaults = await this.hooks.findDefaults(m);
      const copied = new Set((await this.hooks.findCopies(m, repoId)).map((w) => w.defaultSourceId));
      const now = new Date();
      let created = 0;
      for (const d of defaults.filter((w) => !copied.has(w.id))) {
        await this.hooks.insert(m, {
          ...d,
          ...this.secrets.sealedCopy(d),
          id: undefined,
          kind: 'repository',
          repoId,
          ownerId: 0,
          defaultSourceId: d.id,
          createdAt: now,
          updatedAt: now,
        });
        created += 1;
      }
      return created;
    });
  }

  async autoDisable(id: number): Promise<void> {
    await this.db.transaction((m) => this.hooks.update(m, id, { isActive: false, updatedAt: new Date() }));
  }
}
