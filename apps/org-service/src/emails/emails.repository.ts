import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { containsPattern, Database } from '@gitforge/platform';
import type { ListOptions } from '@gitforge/contracts';
import { UserEntity, UserType } from '../users/user.entity.js';
import { EmailAddressEntity } from './email-address.entity.js';

export interface EmailSearchRow {
  address: EmailAddressEntity;
  username: string;
}

@Injectable()
export class EmailsRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  listOfUser(uid: number, manager?: EntityManager): Promise<EmailAddressEntity[]> {
    return this.m(manager).find(EmailAddressEntity, { where: { uid }, order: { id: 'ASC' } });
  }

  /** Addresses are unique across all users, case-insensitively. */
  findByEmail(email: string, manager?: EntityManager): Promise<EmailAddressEntity | null> {
    return this.m(manager).findOne(EmailAddressEntity, { where: { lowerEmail: email.toLowerCase() } });
  }

  async insert(manager: EntityManager, uid: number, email: string, primary: boolean): Promise<void> {
    await manager.insert(EmailAddressEntity, { uid, email, lowerEmail: email.toLowerCase(), isActivated: true, isPrimary: primary });
  }

  async update(manager: EntityManager, id: number, changes: Partial<EmailAddressEntity>): Promise<void> {
    await manager.update(EmailAddressEntity, { id }, changes);
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(EmailAddressEntity, { id });
  }

  async deleteOfUser(manager: EntityManager, uid: number): Promise<void> {
    await manager.delete(EmailAddressEntity, { uid });
  }

  /**
   * Gitea's SearchEmails: addresses of individual users whose address, login or full name contains
   * `keyword`, ordered by address, primary first, then by id.
   */
  async search(keyword: string, options: ListOptions): Promise<[EmailSearchRow[], number]> {
    const qb = this.db.manager
      .createQueryBuilder(EmailAddressEntity, 'e')
      .innerJoin(UserEntity, 'u', 'u.id = e.uid')
      .where('u.type = :type', { type: UserType.individual });
    const kw = keyword.trim().toLowerCase();
    if (kw) {
      qb.andWhere("(LOWER(u.full_name) LIKE :like ESCAPE '\\' OR u.lower_name LIKE :like ESCAPE '\\' OR e.lower_email LIKE :like ESCAPE '\\')", { like: containsPattern(kw) });
    }
    const total = await qb.getCount();
    const rows = await qb
      .select(['e.id AS id', 'e.uid AS uid', 'e.email AS email', 'e.is_activated AS is_activated', 'e.is_primary AS is_primary', 'u.name AS username'])
      .orderBy('e.lower_email', 'ASC')
      .addOrderBy('e.is_primary', 'DESC')
      .addOrderBy('e.id', 'ASC')
      .offset((options.page - 1) * options.limit)
      .limit(options.limit)
      .getRawMany<{ id: number; uid: number; email: string; is_activated: boolean | number; is_primary: boolean | number; username: string }>();
    return [
      rows.map((r) => ({
        address: Object.assign(new EmailAddressEntity(), {
          id: Number(r.id),
          uid: Number(r.uid),
          email: r.email,
          lowerEmail: r.email.toLowerCase(),
          isActivated: Boolean(r.is_activated),
          isPrimary: Boolean(r.is_primary),
        }),
        username: r.username,
      })),
      total,
    ];
  }
}
