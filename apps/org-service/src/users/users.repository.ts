import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { Database } from '@gitforge/platform';
import { UserEntity, UserType } from './user.entity.js';

@Injectable()
export class UsersRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  findById(id: number, manager?: EntityManager): Promise<UserEntity | null> {
    return this.m(manager).findOne(UserEntity, { where: { id } });
  }

  findByIds(ids: number[]): Promise<UserEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.manager.find(UserEntity, { where: { id: In([...new Set(ids)]) } });
  }

  /** Users and organizations share one namespace, case-insensitively. */
  findByName(name: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.m(manager).findOne(UserEntity, { where: { lowerName: name.toLowerCase() } });
  }

  findIndividualByEmail(email: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.m(manager)
      .createQueryBuilder(UserEntity, 'u')
      .where('LOWER(u.email) = :email AND u.type = :type', { email: email.toLowerCase(), type: UserType.individual })
      .getOne();
  }

  findIndividualsByEmails(emails: string[]): Promise<UserEntity[]> {
    const lower = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
    if (lower.length === 0) return Promise.resolve([]);
    return this.db.manager
      .createQueryBuilder(UserEntity, 'u')
      .where('LOWER(u.email) IN (:...lower) AND u.type = :type', { lower, type: UserType.individual })
      .getMany();
  }

  insert(manager: EntityManager, user: Partial<UserEntity>): Promise<UserEntity> {
    return manager.save(UserEntity, manager.create(UserEntity, user));
  }

  async update(manager: EntityManager, id: number, changes: Partial<UserEntity>): Promise<void> {
    await manager.update(UserEntity, { id }, changes);
  }
}
