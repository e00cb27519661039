import { Injectable } from '@nestjs/common';
import {
  ContractError,
  EventNames,
  forbidden,
  notFound,
  ownerNameProblem,
  unprocessable,
  type Actor,
  type CreateUserOption,
  type User,
} from '@gitforge/contracts';
import { Database, isUniqueViolation, OutboxService, PlatformConfig } from '@gitforge/platform';
import { OrgsRepository } from '../orgs/orgs.repository.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './password.js';
import { UserEntity, UserType } from './user.entity.js';
import { toUser } from './user.mapper.js';
import { UsersRepository } from './users.repository.js';
import { isUserVisible } from './visibility.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly orgs: OrgsRepository,
    private readonly outbox: OutboxService,
    private readonly config: PlatformConfig,
  ) {}

  async getSelf(actor: Actor | null): Promise<User> {
    const me = actor ? await this.users.findById(actor.id) : null;
    if (!actor || !me) throw new ContractError('unauthenticated', 'token is required');
    return toUser(me, actor, this.config.rootUrl);
  }

  async get(actor: Actor | null, username: string): Promise<User> {
    const user = await this.findVisible(actor, username);
    return toUser(user, actor, this.config.rootUrl);
  }

  async getMany(actor: Actor | null, ids: number[]): Promise<User[]> {
    const users = await this.users.findByIds(ids);
    return users.map((u) => toUser(u, actor, this.config.rootUrl));
  }

  /** Individual users by e-mail, keyed by the lower-cased address (commit authors and committers). */
  async getManyByEmail(actor: Actor | null, emails: string[]): Promise<Record<string, User>> {
    const users = await this.users.findIndividualsByEmails(emails);
    return Object.fromEntries(users.map((u) => [u.email.toLowerCase(), toUser(u, actor, this.config.rootUrl)]));
  }

  /** The account named `name` if the actor may see it, else not_found (Gitea hides rather than forbids). */
  async findVisible(actor: Actor | null, name: string): Promise<UserEntity> {
    const user = await this.users.findByName(name);
    if (!user) throw notFound(`user redirect does not exist [name: ${name}]`);
    if (!(await this.isVisibleTo(user, actor))) throw notFound(`user redirect does not exist [name: ${name}]`);
    return user;
  }

  async isVisibleTo(user: UserEntity, actor: Actor | null): Promise<boolean> {
    const viewer = actor ? await this.users.findById(actor.id) : null;
    return isUserVisible(user, viewer, async () => ({
      follows: false,
      sharesOrg: user.isOrganization
        ? await this.orgs.isMember(user.id, viewer!.id)
        : await this.orgs.shareAnOrganization(user.id, viewer!.id),
    }));
  }

  async adminCreate(actor: Actor | null, body: CreateUserOption): Promise<User> {
    if (!actor?.isAdmin) throw forbidden('user should be the site admin');
    const loginSource = body.source_id ?? 0;
    if (loginSource === 0 && (body.password ?? '').length < MIN_PASSWORD_LENGTH) {
      throw new ContractError('invalid_argument', 'PasswordIsRequired');
    }
    const problem = ownerNameProblem(body.username);
    if (problem) throw unprocessable(problem);
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const id = await this.db.transaction(async (m) => {
      if (await this.users.findByName(body.username, m)) throw unprocessable(`user already exists [name: ${body.username}]`);
      if (await this.users.findIndividualByEmail(body.email, m)) throw unprocessable(`e-mail already in use [email: ${body.email}]`);
      const now = body.created_at ? new Date(body.created_at) : new Date();
      const user = await this.users.insert(m, {
        lowerName: body.username.toLowerCase(),
        name: body.username,
        fullName: body.full_name ?? '',
        email: body.email,
        passwordHash,
        mustChangePassword: body.must_change_password ?? true,
        loginSource,
        loginName: body.login_name ?? '',
        type: UserType.individual,
        visibility: body.visibility ?? 'public',
        isActive: true,
        isRestricted: body.restricted ?? false,
        createdAt: now,
        updatedAt: now,
      });
      await this.outbox.add(m, EventNames.userCreated, { user: toUser(user, null, this.config.rootUrl) }, { actor });
      return user.id;
    });
    return toUser((await this.users.findById(id))!, actor, this.config.rootUrl);
  }

  /**
   * Makes sure the administrator named in the environment exists and is a site admin.
   * The password is only set when the account is created; changes made since are kept.
   */
  async ensureAdmin(username: string, password: string, email: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const ensure = this.db.transaction(async (m) => {
      const existing = await this.users.findByName(username, m);
      if (existing) {
        if (existing.isOrganization) throw new Error(`GITFORGE_ADMIN_USER ${username} names an organization`);
        if (!existing.isAdmin || !existing.isActive || existing.prohibitLogin) {
          await this.users.update(m, existing.id, { isAdmin: true, isActive: true, prohibitLogin: false, updatedAt: new Date() });
        }
        return;
      }
      const now = new Date();
      await this.users.insert(m, {
        lowerName: username.toLowerCase(),
        name: username,
        email,
        passwordHash,
        mustChangePassword: false,
        type: UserType.individual,
        visibility: 'public',
        isActive: true,
        isAdmin: true,
        createdAt: now,
        updatedAt: now,
      });
    });
    // Two replicas starting together: the one that lost the insert race finds the admin made.
    await ensure.catch((err: unknown) => {
      if (!isUniqueViolation(err)) throw err;
    });
  }
}
