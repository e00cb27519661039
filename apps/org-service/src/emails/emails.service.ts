import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  invalid,
  notFound,
  pageOf,
  unprocessable,
  requireSiteAdmin,
  type Actor,
  type CreateEmailOption,
  type DeleteEmailOption,
  type Email,
  type ListOptions,
  type Page,
} from '@gitforge/contracts';
import { Database } from '@gitforge/platform';
import { rejectPublicOnly, requireActor } from '../auth/actor.js';
import type { UserEntity } from '../users/user.entity.js';
import { UsersRepository } from '../users/users.repository.js';
import { toEmail } from './email.mapper.js';
import { emailProblem, emailProblemMessage } from './email-validation.js';
import { EmailsRepository } from './emails.repository.js';

/** A user's e-mail addresses (`/user/emails`) and the site-wide listing (`/admin/emails`). */
@Injectable()
export class EmailsService {
  constructor(
    private readonly db: Database,
    private readonly emails: EmailsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** The actor, refused with public-only tokens: addresses are private account data. */
  private requireActor(actor: Actor | null): Actor {
    const a = requireActor(actor);
    rejectPublicOnly(a);
    return a;
  }

  async list(actor: Actor | null): Promise<Email[]> {
    const a = this.requireActor(actor);
    return (await this.emails.listOfUser(a.id)).map((e) => toEmail(e));
  }

  /** Adds verified, non-primary addresses; all or none. */
  async add(actor: Actor | null, body: CreateEmailOption): Promise<Email[]> {
    const a = this.requireActor(actor);
    const wanted = body.emails ?? [];
    if (wanted.length === 0) throw unprocessable('Email list empty');
    for (const email of wanted) {
      if (emailProblem(email)) throw unprocessable(`Email address ${JSON.stringify(email)} invalid`);
    }
    await this.db.transaction(async (m) => {
      for (const email of wanted) {
        if (await this.emails.findByEmail(email, m)) throw unprocessable(`Email address has been used: ${email}`);
        await this.emails.insert(m, a.id, email, false);
      }
    });
    return this.list(a);
  }

  /** Deletes the actor's addresses; an unknown one answers 404, the primary one 422; all or none. */
  async delete(actor: Actor | null, body: DeleteEmailOption): Promise<void> {
    const a = this.requireActor(actor);
    const doomed = body.emails ?? [];
    if (doomed.length === 0) return;
    await this.db.transaction(async (m) => {
      for (const email of doomed) {
        const row = await this.emails.findByEmail(email, m);
        if (!row || row.uid !== a.id) throw notFound(`Email address does not exist [email: ${email}]`);
        if (row.isPrimary) throw unprocessable(`Primary email address cannot be deleted [email: ${email}]`);
        await this.emails.delete(m, row.id);
      }
    });
  }

  /** `GET /admin/emails[/search]`. */
  async search(actor: Actor | null, keyword: string, options: ListOptions): Promise<Page<Email>> {
    requireSiteAdmin(actor);
    const [rows, total] = await this.emails.search(keyword, options);
    return pageOf(
      rows.map((r) => toEmail(r.address, { id: r.address.uid, username: r.username })),
      total,
      options,
    );
  }

  /**
   * Gitea's ReplacePrimaryEmailAddress (admin edit): `email` replaces the user's primary address,
   * whose row goes; an address anyone has already, the user's own secondary ones included, is refused.
   */
  async setPrimary(m: EntityManager, user: UserEntity, email: string): Promise<void> {
    if (user.email.toLowerCase() === email.toLowerCase()) return;
    const problem = emailProblem(email);
    if (problem) throw invalid(emailProblemMessage(problem, email));
    // Any other row of the address, the user's own secondary one too, is in use.
    if (await this.emails.findByEmail(email, m)) throw invalid(`e-mail already in use [email: ${email}]`);
    // The old primary address goes (free for anyone again), the new one takes its place.
    for (const own of await this.emails.listOfUser(user.id, m)) {
      if (own.isPrimary) await this.emails.delete(m, own.id);
    }
    await this.emails.insert(m, user.id, email, true);
    await this.users.update(m, user.id, { email });
  }

  /** Records a new account's primary address. */
  async addPrimary(m: EntityManager, uid: number, email: string): Promise<void> {
    if (email) await this.emails.insert(m, uid, email, true);
  }

  isTaken(email: string, m: EntityManager): Promise<boolean> {
    return this.emails.findByEmail(email, m).then((row) => row !== null);
  }
}
