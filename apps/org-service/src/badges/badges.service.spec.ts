import { ContractError, type Actor } from '@gitforge/contracts';
import type { Database } from '@gitforge/platform';
import type { EntityManager } from 'typeorm';
import type { UserEntity } from '../users/user.entity.js';
import type { UsersService } from '../users/users.service.js';
import type { BadgeEntity } from './badge.entity.js';
import type { BadgesRepository } from './badges.repository.js';
import { BadgesService } from './badges.service.js';

const ADMIN: Actor = { id: 1, login: 'root', isAdmin: true, scopes: null };
const USER: Actor = { id: 2, login: 'alice', isAdmin: false, scopes: null };
const BADGE = { id: 5, slug: 'known', description: 'd', imageUrl: '' } as BadgeEntity;

describe(BadgesService.name, () => {
  let asked: string[][];
  let sut: BadgesService;

  beforeEach(() => {
    asked = [];
    // Only the calls these rules may make exist: any other fails the test with a TypeError.
    const badges = {
      findBySlug: async (slug: string) => {
        asked.push([slug]);
        return slug === BADGE.slug ? BADGE : null;
      },
      findBySlugs: async (_m: EntityManager, slugs: string[]) => {
        asked.push(slugs);
        return slugs.includes(BADGE.slug) ? [BADGE] : [];
      },
      heldBy: async () => new Set<number>(),
      take: async () => undefined,
    } as unknown as BadgesRepository;
    const db = {
      transaction: async <T>(work: (m: EntityManager) => Promise<T>) => work({} as EntityManager),
    } as unknown as Database;
    const users = {
      requireInPath: async () => ({ id: 9, name: 'bob' }) as UserEntity,
    } as unknown as UsersService;
    sut = new BadgesService(db, badges, users);
  });

  const refusal = (p: Promise<unknown>): Promise<ContractError> =>
    p.then(
      () => {
        throw new Error('expected a refusal');
      },
      (err: ContractError) => err,
    );

  it('should refuse everyone but site administrators', async () => {
    for (const call of [
      sut.list(USER, { page: 1, limit: 10 }),
      sut.create(USER, { slug: 'x', description: 'x' }),
      sut.listForUser(USER, 'bob'),
      sut.addToUser(USER, 'bob', { badge_slugs: ['known'] }),
      sut.removeFromUser(USER, 'bob', { badge_slugs: ['known'] }),
    ]) {
      expect(await refusal(call)).toMatchObject({
        code: 'permission_denied',
        message: 'user should be the site admin',
      });
    }
    expect(await refusal(sut.create(null, { slug: 'x', description: 'x' }))).toMatchObject({ code: 'unauthenticated', message: 'token is required' });
    expect(asked).toEqual([]);
  });

  it('should answer 404 for a path segment no slug can be, without looking it up', async () => {
    for (const slug of ['..', 'a\u0000b', 'x'.repeat(101)]) {
      expect(await refusal(sut.delete(ADMIN, slug))).toMatchObject({
        code: 'not_found',
        message: `badge does not exist [slug: ${slug}]`,
      });
      expect(await refusal(sut.edit(ADMIN, slug, {}))).toMatchObject({ code: 'not_found' });
    }
    expect(asked).toEqual([]);
  });

  it('should name the first slug that is no badge, and look up only strings that could be slugs, once each', async () => {
    const err = await refusal(
      sut.addToUser(ADMIN, 'bob', { badge_slugs: ['known', 'bad\u0000slug', 'known'] }),
    );
    expect(err).toMatchObject({ code: 'not_found', message: 'badge does not exist [slug: bad\u0000slug]' });
    expect(asked).toEqual([['known']]);
  });

  it('should refuse a badge named twice in one request as one the user already has', async () => {
    const err = await refusal(sut.addToUser(ADMIN, 'bob', { badge_slugs: ['known', 'known'] }));
    expect(err).toMatchObject({
      code: 'conflict',
      message: 'user badge already exists [user_id: 9, badge_id: 5]',
    });
  });

  it('should change nothing, and ask nothing, for an empty or absent list', async () => {
    await sut.addToUser(ADMIN, 'bob', {});
    await sut.removeFromUser(ADMIN, 'bob', { badge_slugs: [] });
    expect(asked).toEqual([]);
  });
});
