import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  ContractError,
  forbidden,
  formInt64,
  idFrom,
  isRowIdRange,
  notFound,
  pageOf,
  unprocessable,
  UserKeyPatterns,
  type Actor,
  type CreateKeyOption,
  type DeployKey,
  type KeyFingerprints,
  type ListOptions,
  type Page,
  type SshKeyOwner,
} from '@gitforge/contracts';
import {
  Database,
  isUniqueViolation,
  parseSshPublicKey,
  PlatformConfig,
  RpcClient,
} from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { RepoPermission } from '../access/repo-permission.js';
import { repoUrls, toRepository } from '../repos/repo.mapper.js';
import type { DeployKeyEntity } from './deploy-key.entity.js';
import { toDeployKey } from './deploy-key.mapper.js';
import { DeployKeysRepository } from './deploy-keys.repository.js';

type DeployOwner = Extract<SshKeyOwner, { kind: 'deploy' }>;
type WriterContext = RepoContext & { actor: Actor };

/**
 * `/repos/{owner}/{repo}/keys`. Issue 13: writers read, admins manage (Gitea asks for admin on
 * the whole group). A key is once per repository, may serve several repositories, and is never
 * also a user's key (org-service holds those; it is asked by fingerprint).
 */
@Injectable()
export class DeployKeysService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly keys: DeployKeysRepository,
    private readonly rpc: RpcClient,
    private readonly config: PlatformConfig,
  ) {}

  async list(
    actor: Actor | null,
    owner: string,
    repo: string,
    query: Record<string, unknown> | undefined,
    options: ListOptions,
  ): Promise<Page<DeployKey>> {
    const ctx = await this.writer(actor, owner, repo);
    const keyId = formInt64(query?.key_id);
    // An id no row could have finds nothing (PostgreSQL would refuse to compare it with an integer column).
    if (keyId !== 0 && !isRowIdRange(keyId)) return pageOf([], 0, options);
    const [rows, total] = await this.keys.list(
      ctx.repo.id,
      {
        keyId: keyId || undefined,
        fingerprint:
          typeof query?.fingerprint === 'string' && query.fingerprint !== '' ? query.fingerprint : undefined,
      },
      options,
    );
    return pageOf(
      rows.map((k) => this.view(ctx, k)),
      total,
      options,
    );
  }

  async get(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<DeployKey> {
    const ctx = await this.writer(actor, owner, repo);
    const key = await this.keys.findInRepo(ctx.repo.id, idFrom(rawId));
    if (!key) throw notFound();
    return this.view(ctx, key);
  }

  async create(actor: Actor | null, owner: string, repo: string, body: CreateKeyOption): Promise<DeployKey> {
    const ctx = await this.admin(actor, owner, repo);
    const parsed = parseSshPublicKey(body.key);
    const userKeys = await this.rpc.call<SshKeyOwner[], Record<string, string>, KeyFingerprints>(
      UserKeyPatterns.findByFingerprints,
      {
        actor,
        body: { fingerprints: [parsed.fingerprint] },
      },
    );
    if (userKeys.length > 0) throw unprocessable('Key content has been used as non-deploy key');
    const created = await this.db
      .transaction(async (m) => {
        const publicKey =
          (await this.keys.findPublicKey(parsed.fingerprint, m)) ??
          (await this.keys.insertPublicKey(m, {
            fingerprint: parsed.fingerprint,
            content: parsed.content,
            createdAt: new Date(),
          }));
        if (await this.keys.findByKeyAndRepo(m, publicKey.id, ctx.repo.id))
          throw unprocessable('This key has already been added to this repository');
        if (await this.keys.findByName(m, ctx.repo.id, body.title))
          throw unprocessable('A key with the same name already exists');
        return this.keys.insert(m, {
          keyId: publicKey.id,
          repoId: ctx.repo.id,
          name: body.title,
          fingerprint: parsed.fingerprint,
          content: parsed.content,
          readOnly: body.read_only ?? false,
          createdAt: new Date(),
        });
      })
      .catch((err: unknown) => {
        // Two requests adding the same key (or title) at once: the loser gets the answer it would have had a moment later.
        if (isUniqueViolation(err)) throw unprocessable('This key has already been added to this repository');
        throw err;
      });
    return toDeployKey(created, this.keysUrl(ctx));
  }

  async delete(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<void> {
    const ctx = await this.admin(actor, owner, repo);
    await this.db.transaction(async (m) => {
      const key = await this.keys.findInRepo(ctx.repo.id, idFrom(rawId), m);
      if (!key) throw notFound();
      await this.keys.delete(m, key);
    });
  }

  /** The deploy keys with these fingerprints and the repositories each opens (one query per call, not per key). */
  async findByFingerprints(fingerprints: string[]): Promise<DeployOwner[]> {
    const publicKeys = await this.keys.publicKeysByFingerprints([...new Set(fingerprints)].slice(0, 100));
    const uses = await this.keys.byKeyIds(publicKeys.map((k) => k.id));
    return publicKeys.map((k) => ({
      kind: 'deploy',
      keyId: k.id,
      fingerprint: k.fingerprint,
      content: k.content,
      repositories: uses
        .filter((u) => u.keyId === k.id)
        .map((u) => ({ deployKeyId: u.id, repoId: u.repoId, readOnly: u.readOnly })),
    }));
  }

  /** Gitea appends the repository (with the key's access) for site administrators and the repository's owner. */
  private view(ctx: WriterContext, key: DeployKeyEntity): DeployKey {
    const privileged = ctx.actor.isAdmin || ctx.actor.id === ctx.repo.ownerId;
    const repository = privileged
      ? toRepository(
          ctx.repo,
          ctx.owner.ownerUser,
          new RepoPermission(key.readOnly ? AccessMode.read : AccessMode.write),
          this.config,
        )
      : undefined;
    return toDeployKey(key, this.keysUrl(ctx), repository);
  }

  private keysUrl(ctx: RepoContext): string {
    return `${repoUrls(this.config, ctx.owner.ownerUser.login, ctx.repo.name).api}/keys/`;
  }

  private async writer(actor: Actor | null, owner: string, repo: string): Promise<WriterContext> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!ctx.permission.canWrite('repo.code'))
      throw forbidden('user should have a permission to write to a repo');
    return { ...ctx, actor };
  }

  private async admin(actor: Actor | null, owner: string, repo: string): Promise<RepoContext> {
    const ctx = await this.access.assign(actor, owner, repo);
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!ctx.permission.isAdmin)
      throw forbidden('user should be an owner or a collaborator with admin write of a repository');
    return ctx;
  }
}
