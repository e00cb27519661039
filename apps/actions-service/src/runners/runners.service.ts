import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager, FindOptionsWhere } from 'typeorm';
import {
  ContractError,
  formBool,
  invalid,
  notFound,
  type Actor,
  type ActionRunner,
  type ActionRunnersResponse,
  type ActionsScope,
  type EditActionRunnerOption,
  type ListOptions,
  type RegistrationToken,
  type RunnerCredentials,
  type RunnerMessage,
} from '@gitforge/contracts';
import { Database, SecretBox } from '@gitforge/platform';
import { ActionsServiceConfig } from '../actions.config.js';
import { ActionRunnerEntity, ActionRunnerTokenEntity } from '../entities.js';
import { ScopeService, type ResolvedScope } from '../scope.service.js';

/** A runner is offline when it has not called for this long, busy while it reported work this recently (Gitea's). */
const OFFLINE_AFTER_MS = 60_000;
const ACTIVE_WITHIN_MS = 10_000;
/** How stale the stored times may get before a call writes them again. */
const TOUCH_ONLINE_MS = 10_000;
const TOUCH_ACTIVE_MS = 2_000;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Labels as the runner declares them: `name` or `name:schema[:args]`; only the name matches `runs-on`. */
export const labelNames = (labels: string[]): string[] => labels.map((l) => l.split(':')[0]!).filter((l) => l !== '');

/** Runners, their registration tokens and authentication (the API and the runner protocol's first half). */
/** The expiry of a token that never expires (the latest time a Date holds). */
const NEVER = new Date(8_640_000_000_000_000);

@Injectable()
export class RunnersService {
  constructor(
    private readonly db: Database,
    private readonly scopes: ScopeService,
    private readonly box: SecretBox,
    private readonly config: ActionsServiceConfig,
  ) {}

  /** Gitea's runner contexts: the site's administrators see and manage every runner, other scopes their own. */
  private where(scope: ResolvedScope): FindOptionsWhere<ActionRunnerEntity> {
    if (scope.kind === 'admin') return {};
    return { ownerId: scope.ownerId, repoId: scope.repoId };
  }

  static toApi(runner: ActionRunnerEntity, now = Date.now()): ActionRunner {
    const online = runner.lastOnline !== null && now - runner.lastOnline.getTime() < OFFLINE_AFTER_MS;
    const active = online && runner.lastActive !== null && now - runner.lastActive.getTime() < ACTIVE_WITHIN_MS;
    const labels = JSON.parse(runner.labels) as string[];
    return {
      id: runner.id,
      name: runner.name,
      // Gitea's API shows idle and active runners alike as online; `busy` tells them apart.
      status: online ? 'online' : 'offline',
      busy: active,
      disabled: runner.disabled,
      ephemeral: runner.ephemeral,
      // Gitea's ToActionRunner numbers the labels by position.
      labels: labels.map((name, i) => ({ id: i, name, type: 'custom' })),
    };
  }


  async list(actor: Actor | null, scope: ActionsScope, query: { disabled?: unknown }, options: ListOptions): Promise<ActionRunnersResponse> {
    const resolved = await this.scopes.resolve(actor, scope, 'admin');
    const where: FindOptionsWhere<ActionRunnerEntity> = this.where(resolved);
    // Gitea's FormOptionalBool: any value filters, true when it reads as one (`on`, `1`, `true`, …).
    if (query.disabled !== undefined && query.disabled !== '') where.disabled = query.disabled === true || formBool(String(query.disabled));
    const [rows, total] = await this.db.manager.findAndCount(ActionRunnerEntity, {
      where,
      // Gitea's FindRunnerOptions default: the most recently seen first (never seen last), then by id.
      order: { lastOnline: { direction: 'DESC', nulls: 'LAST' }, id: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    const now = Date.now();
    return { runners: rows.map((r) => RunnersService.toApi(r, now)), total_count: total };
  }

  /** Gitea's getRunnerByID: an id that is no number is 0; unknown is `runner with id N: not exist`, another scope's `No permission to access this runner`. */
  private async find(scope: ResolvedScope, rawId: string | undefined): Promise<ActionRunnerEntity> {
    const id = /^-?\d+$/.test(rawId ?? '') ? Number(rawId) : 0;
    const runner = Number.isSafeInteger(id) && id > 0 ? await this.db.manager.findOne(ActionRunnerEntity, { where: { id } }) : null;
    if (!runner) throw notFound(`runner with id ${id}: not exist`);
    const own = this.where(scope);
    if (Object.entries(own).some(([k, v]) => runner[k as keyof ActionRunnerEntity] !== v)) throw notFound('No permission to access this runner');
    return runner;
  }

  async get(actor: Actor | null, scope: ActionsScope, id: string | undefined): Promise<ActionRunner> {
    return RunnersService.toApi(await this.find(await this.scopes.resolve(actor, scope, 'admin'), id));
  }

  async edit(actor: Actor | null, scope: ActionsScope, id: string | undefined, body: EditActionRunnerOption): Promise<ActionRunner> {
    const runner = await this.find(await this.scopes.resolve(actor, scope, 'admin'), id);
    await this.db.manager.update(ActionRunnerEntity, { id: runner.id }, { disabled: body.disabled, updatedAt: new Date() });
    return RunnersService.toApi((await this.db.manager.findOneBy(ActionRunnerEntity, { id: runner.id }))!);
  }

  async delete(actor: Actor | null, scope: ActionsScope, id: string | undefined): Promise<void> {
    const runner = await this.find(await this.scopes.resolve(actor, scope, 'admin'), id);
    await this.db.manager.delete(ActionRunnerEntity, { id: runner.id });
  }

  /**
   * The scope's registration token: the current one while it is unexpired, else a new one (Gitea's
   * GetRegistrationToken). A token registers any number of runners, as Gitea's does (one token
   * for a fleet of act_runner replicas), and by default never expires.
   */
  async registrationToken(actor: Actor | null, scope: ActionsScope): Promise<RegistrationToken> {
    const resolved = await this.scopes.resolve(actor, scope, 'admin');
    return this.db.transaction(async (m) => {
      const now = new Date();
      const current = await m.findOne(ActionRunnerTokenEntity, {
        where: { ownerId: resolved.ownerId, repoId: resolved.repoId, isActive: true },
        order: { id: 'DESC' },
      });
      if (current && current.expiresAt.getTime() > now.getTime()) return { token: this.box.open(current.sealed) };
      if (current) await m.update(ActionRunnerTokenEntity, { id: current.id }, { isActive: false });
      const token = randomBytes(20).toString('hex');
      await m.insert(ActionRunnerTokenEntity, {
        tokenHash: sha256(token),
        sealed: this.box.seal(token),
        ownerId: resolved.ownerId,
        repoId: resolved.repoId,
        isActive: true,
        createdAt: now,
        expiresAt: this.config.GITFORGE_ACTIONS_REGISTRATION_TOKEN_TTL_MINUTES > 0 ? new Date(now.getTime() + this.config.GITFORGE_ACTIONS_REGISTRATION_TOKEN_TTL_MINUTES * 60_000) : NEVER,
      });
      return { token };
    });
  }

  private static message(runner: ActionRunnerEntity, token = ''): RunnerMessage {
    return {
      id: runner.id,
      uuid: runner.uuid,
      token,
      name: runner.name,
      version: runner.version,
      labels: JSON.parse(runner.labels) as string[],
      ephemeral: runner.ephemeral,
    };
  }

  /** runner.v1 Register: an active, unexpired registration token of a scope makes a runner of that scope. */
  async register(body: { name: string; token: string; version: string; labels: string[]; ephemeral: boolean }): Promise<RunnerMessage> {
    const name = body.name.trim().slice(0, 255);
    if (name === '') throw invalid('runner name is required');
    if (body.labels.some((l) => typeof l !== 'string' || l.trim() === '' || l.length > 255)) throw invalid('invalid labels');
    const token = randomBytes(20).toString('hex');
    const runner = await this.db.transaction(async (m: EntityManager) => {
      const now = new Date();
      const registration = await m.findOne(ActionRunnerTokenEntity, { where: { tokenHash: sha256(body.token) } });
      if (!registration) throw invalid('runner registration token not found');
      // Gitea's words for a token that was replaced.
      if (!registration.isActive) throw invalid('runner registration token has been invalidated, please use the latest one');
      if (registration.expiresAt.getTime() <= now.getTime()) throw invalid('runner registration token has expired, please use the latest one');
      const row = m.create(ActionRunnerEntity, {
        uuid: randomUUID(),
        tokenHash: sha256(token),
        name,
        ownerId: registration.ownerId,
        repoId: registration.repoId,
        version: body.version.slice(0, 64),
        labels: JSON.stringify(body.labels),
        ephemeral: body.ephemeral,
        disabled: false,
        // Gitea's Register leaves it unset: the runner shows offline until its first call.
        lastOnline: null,
        lastActive: null,
        createdAt: now,
        updatedAt: now,
      });
      return m.save(row);
    });
    return RunnersService.message(runner, token);
  }

  /** The runner a call comes from (`x-runner-uuid` and `x-runner-token`), marked online. */
  async authenticate(credentials: RunnerCredentials | undefined, active = false): Promise<ActionRunnerEntity> {
    if (!credentials?.uuid || !credentials.token) throw new ContractError('unauthenticated', 'unregistered runner');
    const runner = await this.db.manager.findOne(ActionRunnerEntity, { where: { uuid: credentials.uuid } });
    if (!runner || runner.tokenHash !== sha256(credentials.token)) throw new ContractError('unauthenticated', 'unregistered runner');
    // Polls come every few seconds per runner: its times are written only when they would show a
    // different status soon (online within a minute, busy within ten seconds), not on every call.
    const now = new Date();
    const patch: Partial<ActionRunnerEntity> = {};
    if (!runner.lastOnline || now.getTime() - runner.lastOnline.getTime() >= TOUCH_ONLINE_MS) patch.lastOnline = now;
    if (active && (!runner.lastActive || now.getTime() - runner.lastActive.getTime() >= TOUCH_ACTIVE_MS)) patch.lastActive = patch.lastOnline = now;
    if (Object.keys(patch).length > 0) {
      await this.db.manager.update(ActionRunnerEntity, { id: runner.id }, patch);
      Object.assign(runner, patch);
    }
    return runner;
  }

  /** runner.v1 Declare: the runner's version and labels as it starts. */
  async declare(credentials: RunnerCredentials, body: { version: string; labels: string[] }): Promise<RunnerMessage> {
    const runner = await this.authenticate(credentials);
    if (body.labels.some((l) => typeof l !== 'string' || l.trim() === '' || l.length > 255)) throw invalid('invalid labels');
    await this.db.manager.update(
      ActionRunnerEntity,
      { id: runner.id },
      { version: body.version.slice(0, 64), labels: JSON.stringify(body.labels), updatedAt: new Date() },
    );
    return RunnersService.message((await this.db.manager.findOneBy(ActionRunnerEntity, { id: runner.id }))!);
  }

  /** Removes registration tokens that can no longer register anything. */
  async purgeDeadTokens(before: Date): Promise<number> {
    const r = await this.db.manager
      .createQueryBuilder()
      .delete()
      .from(ActionRunnerTokenEntity)
      .where('is_active = :inactive OR expires_at < :before', { inactive: false, before: before.getTime() })
      .execute();
    return r.affected ?? 0;
  }
}
