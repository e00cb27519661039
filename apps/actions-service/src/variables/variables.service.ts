import { Injectable } from '@nestjs/common';
import {
  conflict,
  formatTime,
  invalid,
  notFound,
  pageOf,
  type Actor,
  type ActionSecret,
  type ActionsScope,
  type ActionVariable,
  type CreateOrUpdateSecretOption,
  type CreateVariableOption,
  type ListOptions,
  type Page,
  type UpdateVariableOption,
} from '@gitforge/contracts';
import { Database, isUniqueViolation, SecretBox } from '@gitforge/platform';
import { ActionSecretEntity, ActionVariableEntity } from '../entities.js';
import { ScopeService, type ResolvedScope } from '../scope.service.js';

/** GitHub's and Gitea's rule for variable and secret names; stored upper-case. */
const NAME = /^[A-Z_][A-Z0-9_]*$/i;
const RESERVED_PREFIX = /^GIT(EA|HUB)_/i;

function validName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (!NAME.test(name) || RESERVED_PREFIX.test(name) || name.length > 255) throw invalid('invalid variable or secret name');
  return name.toUpperCase();
}

/** Gitea keeps line breaks as `\n` whatever the client sent. */
const normalizeText = (value: string): string => value.replace(/\r\n?/g, '\n');

/** Variables and secrets of repositories, organizations and users, and what a task may see of them. */
@Injectable()
export class VariablesService {
  constructor(
    private readonly db: Database,
    private readonly scopes: ScopeService,
    private readonly box: SecretBox,
  ) {}

  private static toVariable(v: ActionVariableEntity): ActionVariable {
    return { owner_id: v.ownerId, repo_id: v.repoId, name: v.name, data: v.data, description: v.description };
  }

  private async place(actor: Actor | null, scope: ActionsScope): Promise<ResolvedScope> {
    return this.scopes.resolve(actor, scope, 'admin');
  }

  async listVariables(actor: Actor | null, scope: ActionsScope, options: ListOptions): Promise<Page<ActionVariable>> {
    const s = await this.place(actor, scope);
    const [rows, total] = await this.db.manager.findAndCount(ActionVariableEntity, {
      where: { ownerId: s.ownerId, repoId: s.repoId },
      order: { name: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    return pageOf(rows.map(VariablesService.toVariable), total, options);
  }

  private async findVariable(s: ResolvedScope, raw: string | undefined): Promise<ActionVariableEntity> {
    const name = validName(raw);
    const row = await this.db.manager.findOneBy(ActionVariableEntity, { ownerId: s.ownerId, repoId: s.repoId, name });
    if (!row) throw notFound('variable not found');
    return row;
  }

  async getVariable(actor: Actor | null, scope: ActionsScope, name: string | undefined): Promise<ActionVariable> {
    return VariablesService.toVariable(await this.findVariable(await this.place(actor, scope), name));
  }

  async createVariable(actor: Actor | null, scope: ActionsScope, rawName: string | undefined, body: CreateVariableOption): Promise<void> {
    const s = await this.place(actor, scope);
    const name = validName(rawName);
    const now = new Date();
    try {
      await this.db.manager.insert(ActionVariableEntity, {
        ownerId: s.ownerId,
        repoId: s.repoId,
        name,
        data: normalizeText(body.value),
        description: body.description ?? '',
        createdAt: now,
        updatedAt: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('variable name already exists');
      throw err;
    }
  }

  /** PUT: the value, the description (none when not given, as Gitea), and a new name unless `name` is empty. */
  async updateVariable(actor: Actor | null, scope: ActionsScope, rawName: string | undefined, body: UpdateVariableOption): Promise<void> {
    const s = await this.place(actor, scope);
    const row = await this.findVariable(s, rawName);
    const name = body.name ? validName(body.name) : row.name;
    try {
      await this.db.manager.update(
        ActionVariableEntity,
        { id: row.id },
        { name, data: normalizeText(body.value), description: body.description ?? '', updatedAt: new Date() },
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('variable name already exists');
      throw err;
    }
  }

  async deleteVariable(actor: Actor | null, scope: ActionsScope, rawName: string | undefined): Promise<void> {
    const row = await this.findVariable(await this.place(actor, scope), rawName);
    await this.db.manager.delete(ActionVariableEntity, { id: row.id });
  }

  async listSecrets(actor: Actor | null, scope: ActionsScope, options: ListOptions): Promise<Page<ActionSecret>> {
    const s = await this.place(actor, scope);
    const [rows, total] = await this.db.manager.findAndCount(ActionSecretEntity, {
      where: { ownerId: s.ownerId, repoId: s.repoId },
      order: { name: 'ASC' },
      skip: (options.page - 1) * options.limit,
      take: options.limit,
    });
    return pageOf(
      rows.map((r) => ({ name: r.name, description: r.description, created_at: formatTime(r.createdAt) })),
      total,
      options,
    );
  }

  /** PUT: answers whether the secret was created (201) or replaced (204); the value is sealed, never shown again. */
  async putSecret(actor: Actor | null, scope: ActionsScope, rawName: string | undefined, body: CreateOrUpdateSecretOption): Promise<{ created: boolean }> {
    const s = await this.place(actor, scope);
    const name = validName(rawName);
    const data = this.box.seal(normalizeText(body.data));
    const put = () =>
      this.db.transaction(async (m) => {
        const now = new Date();
        const existing = await m.findOneBy(ActionSecretEntity, { ownerId: s.ownerId, repoId: s.repoId, name });
        if (existing) {
          await m.update(ActionSecretEntity, { id: existing.id }, { data, description: body.description ?? '', updatedAt: now });
          return { created: false };
        }
        await m.insert(ActionSecretEntity, { ownerId: s.ownerId, repoId: s.repoId, name, data, description: body.description ?? '', createdAt: now, updatedAt: now });
        return { created: true };
      });
    // Another PUT of the same name created it between our read and our insert: ours replaces it.
    return put().catch((err: unknown) => {
      if (isUniqueViolation(err)) return put();
      throw err;
    });
  }

  async deleteSecret(actor: Actor | null, scope: ActionsScope, rawName: string | undefined): Promise<void> {
    const s = await this.place(actor, scope);
    const name = validName(rawName);
    const r = await this.db.manager.delete(ActionSecretEntity, { ownerId: s.ownerId, repoId: s.repoId, name });
    if (!r.affected) throw notFound('secret not found');
  }

  /**
   * What a task of a repository sees: its owner's variables and secrets, overridden by the
   * repository's own (Gitea's order). Secrets are opened only here, for the runner.
   */
  async forTask(ownerId: number, repoId: number): Promise<{ vars: Record<string, string>; secrets: Record<string, string> }> {
    const scopes = [
      { ownerId, repoId: 0 },
      { ownerId: 0, repoId },
    ];
    const vars: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    for (const where of scopes) {
      for (const v of await this.db.manager.findBy(ActionVariableEntity, where)) vars[v.name] = v.data;
      for (const sec of await this.db.manager.findBy(ActionSecretEntity, where)) secrets[sec.name] = this.box.open(sec.data);
    }
    return { vars, secrets };
  }
}
