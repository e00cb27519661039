import { Injectable } from '@nestjs/common';
import {
  DeployKeyPatterns,
  forbidden,
  idFrom,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type CreateKeyOption,
  type KeyFingerprints,
  type ListOptions,
  type Page,
  type PublicKey,
  type SshKeyOwner,
  type User,
} from '@gitforge/contracts';
import {
  Database,
  isUniqueViolation,
  parseSshPublicKey,
  PlatformConfig,
  RpcClient,
} from '@gitforge/platform';
import { toUser } from '../users/user.mapper.js';
import { UsersRepository } from '../users/users.repository.js';
import { UsersService } from '../users/users.service.js';
import type { PublicKeyEntity } from './public-key.entity.js';
import { toPublicKey } from './public-key.mapper.js';
import { UserKeysRepository } from './user-keys.repository.js';

type UserOwner = Extract<SshKeyOwner, { kind: 'user' }>;

/**
 * Users' SSH keys (`/user/keys`, `/users/{username}/keys`, `/admin/users/{username}/keys`).
 * A key belongs to one user and is never also a deploy key: repo-service, which owns deploy
 * keys, is asked by fingerprint before a key is added.
 */
@Injectable()
export class UserKeysService {
  constructor(
    private readonly db: Database,
    private readonly keys: UserKeysRepository,
    private readonly users: UsersService,
    private readonly userRows: UsersRepository,
    private readonly rpc: RpcClient,
    private readonly config: PlatformConfig,
  ) {}

  /**
   * Gitea's listPublicKeys: without `username` the actor's own keys, except that a `fingerprint`
   * on `/user/keys` looks through every user's keys (Gitea's "querying, not listing").
   */
  async list(
    actor: Actor | null,
    username: string | undefined,
    fingerprint: string | undefined,
    options: ListOptions,
  ): Promise<Page<PublicKey>> {
    let ownerId: number | undefined;
    if (username === undefined) {
      const me = await this.users.requireSelf(actor);
      ownerId = fingerprint ? undefined : me.id;
    } else {
      // Gitea's UserAssignmentAPI: the user by name (or a redirect), whatever their visibility.
      ownerId = (await this.users.requireInPath(actor, username)).id;
    }
    const [rows, total] = await this.keys.list({ ownerId, fingerprint: fingerprint || undefined }, options);
    return pageOf(await this.views(actor, rows), total, options);
  }

  /** `GET /user/keys/{id}`: another user's key is 404 (site administrators see any). */
  async get(actor: Actor | null, rawId: string): Promise<PublicKey> {
    const me = await this.users.requireSelf(actor);
    const key = await this.keys.findById(idFrom(rawId));
    if (!key || (key.ownerId !== me.id && !me.isAdmin)) throw notFound();
    return (await this.views(actor, [key]))[0]!;
  }

  /** `POST /user/keys`, or for a site administrator `POST /admin/users/{username}/keys`. */
  async create(actor: Actor | null, username: string | undefined, body: CreateKeyOption): Promise<PublicKey> {
    const owner = await this.target(actor, username);
    const parsed = parseSshPublicKey(body.key);
    const deployKeys = await this.rpc.call<SshKeyOwner[], Record<string, string>, KeyFingerprints>(
      DeployKeyPatterns.findByFingerprints,
      {
        actor,
        body: { fingerprints: [parsed.fingerprint] },
      },
    );
    if (deployKeys.length > 0) throw unprocessable('Key content has been used as non-deploy key');
    const created = await this.db
      .transaction(async (m) => {
        if (await this.keys.findByFingerprint(m, parsed.fingerprint))
          throw unprocessable('Key content has been used as non-deploy key');
        if (await this.keys.findByName(m, owner.id, body.title))
          throw unprocessable('Key title has been used');
        const now = new Date();
        return this.keys.insert(m, {
          ownerId: owner.id,
          name: body.title,
          fingerprint: parsed.fingerprint,
          content: parsed.content,
          createdAt: now,
          updatedAt: now,
        });
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw unprocessable('Key content has been used as non-deploy key');
        throw err;
      });
    return (await this.views(actor, [created]))[0]!;
  }

  /**
   * Gitea's DeletePublicKey: an unknown id is 404; someone else's key is 403 unless the doer is a
   * site administrator. On the admin route the key must be that user's.
   */
  async delete(actor: Actor | null, username: string | undefined, rawId: string): Promise<void> {
    const owner = await this.target(actor, username);
    await this.db.transaction(async (m) => {
      const key = await this.keys.findById(idFrom(rawId), m);
      if (!key) throw notFound();
      if (key.ownerId !== owner.id && !(username === undefined && owner.isAdmin))
        throw forbidden('You do not have access to this key');
      await this.keys.delete(m, key.id);
    });
  }

  async findByFingerprints(fingerprints: string[]): Promise<UserOwner[]> {
    const rows = await this.keys.byFingerprints([...new Set(fingerprints)].slice(0, 100));
    return rows.map((k) => ({
      kind: 'user',
      keyId: k.id,
      userId: k.ownerId,
      fingerprint: k.fingerprint,
      content: k.content,
    }));
  }

  /** Whose key a fingerprint is: a user's, else a deploy key (asked of repo-service), else nobody. */
  async owner(actor: Actor | null, fingerprint: string): Promise<SshKeyOwner | null> {
    const [user] = await this.findByFingerprints([fingerprint]);
    if (user) return user;
    const [deploy] = await this.rpc.call<SshKeyOwner[], Record<string, string>, KeyFingerprints>(
      DeployKeyPatterns.findByFingerprints,
      {
        actor,
        body: { fingerprints: [fingerprint] },
      },
    );
    return deploy ?? null;
  }

  /** The account whose keys are managed: the actor, or on the admin routes the named user. */
  private async target(
    actor: Actor | null,
    username: string | undefined,
  ): Promise<{ id: number; isAdmin: boolean }> {
    const me = await this.users.requireSelf(actor);
    if (username === undefined) return me;
    if (!me.isAdmin) throw forbidden('user should be the site admin');
    const user = await this.users.requireInPath(actor, username);
    if (user.isOrganization) throw notFound(`user redirect does not exist [name: ${username}]`);
    return user;
  }

  /** Keys as the actor sees them: their own (or, for a site administrator, any) with Gitea's private information. */
  private async views(actor: Actor | null, keys: PublicKeyEntity[]): Promise<PublicKey[]> {
    const privileged = keys.filter((k) => actor && (actor.isAdmin || actor.id === k.ownerId));
    const owners = new Map<number, User>();
    for (const u of await this.userRows.findByIds([...new Set(privileged.map((k) => k.ownerId))]))
      owners.set(u.id, toUser(u, actor, this.config.rootUrl));
    return keys.map((k) =>
      toPublicKey(k, this.config.rootUrl, privileged.includes(k) ? owners.get(k.ownerId) : undefined),
    );
  }
}
