import { ContractError, type Actor } from '@gitforge/contracts';
import { isUniqueViolation, type Database } from '@gitforge/platform';
import { openServiceTestDatabase, uniqueSuffix, type ServiceTestDatabase } from '@gitforge/platform/testing';
import { BadgeEntity } from '../src/badges/badge.entity.js';
import { BadgesRepository } from '../src/badges/badges.repository.js';
import { BadgesService } from '../src/badges/badges.service.js';
import { UserBadgeEntity } from '../src/badges/user-badge.entity.js';
import { OrgServiceEntities, OrgServiceMigrations } from '../src/entities.js';
import type { UserEntity } from '../src/users/user.entity.js';
import { UsersRepository } from '../src/users/users.repository.js';
import type { UsersService } from '../src/users/users.service.js';

const ADMIN: Actor = { id: 1, login: 'root', isAdmin: true, scopes: null };

/** Badges and users' badges on each engine: the migration, the rules that need the unique indexes, and the cleanups. */
describe.each(['sqlite', 'postgres'] as const)('BadgesService on %s', (engine) => {
  let store: ServiceTestDatabase<never>;
  let db: Database;
  let users: UsersRepository;
  let sut: BadgesService;

  beforeAll(async () => {
    store = await openServiceTestDatabase(engine, 'org_badges', {
      service: 'org',
      entities: OrgServiceEntities,
      migrations: OrgServiceMigrations,
    });
    db = store.db;
    users = new UsersRepository(db);
    // Only the lookup of the user named in the path: anything else the service asked of it would fail the test.
    const usersService = {
      requireInPath: async (_actor: Actor | null, name: string) => {
        const user = await users.findByName(name);
        if (!user) throw new ContractError('not_found', `user redirect does not exist [name: ${name}]`);
        return user;
      },
    } as unknown as UsersService;
    sut = new BadgesService(db, new BadgesRepository(db), usersService);
  });

  afterAll(async () => {
    await store?.close();
  });

  const newUser = (): Promise<UserEntity> => {
    const name = `u${uniqueSuffix()}`;
    const now = new Date();
    return db.transaction((m) => users.insert(m, { name, lowerName: name, createdAt: now, updatedAt: now }));
  };
  const newBadge = async (): Promise<string> => {
    const slug = `b-${uniqueSuffix()}`;
    await sut.create(ADMIN, {
      slug,
      description: `the ${slug} badge`,
      image_url: 'https://example.com/b.png',
    });
    return slug;
  };
  const slugsOf = async (user: UserEntity): Promise<string[]> =>
    (await sut.listForUser(ADMIN, user.name)).items.map((b) => b.slug);
  const rejection = (p: Promise<unknown>): Promise<{ code: string; message: string }> =>
    p.then(
      () => {
        throw new Error('expected a refusal');
      },
      (err: ContractError) => ({ code: err.code, message: err.message }),
    );

  it('should create a badge once per slug and answer it in the API shape', async () => {
    const created = await sut.create(ADMIN, { slug: `c-${uniqueSuffix()}`, description: 'first' });
    expect(created).toEqual({
      id: expect.any(Number),
      slug: created.slug,
      description: 'first',
      image_url: '',
    });
    expect(await rejection(sut.create(ADMIN, { slug: created.slug, description: 'again' }))).toEqual({
      code: 'conflict',
      message: `badge already exists [slug: ${created.slug}]`,
    });
  });

  it('should give badges in the order named, all or nothing', async () => {
    const [a, b, c] = [await newBadge(), await newBadge(), await newBadge()];
    const user = await newUser();
    await sut.addToUser(ADMIN, user.name, { badge_slugs: [b, a] });
    expect(await slugsOf(user)).toEqual([b, a]);

    expect(await rejection(sut.addToUser(ADMIN, user.name, { badge_slugs: [c, 'no-such-badge'] }))).toEqual({
      code: 'not_found',
      message: 'badge does not exist [slug: no-such-badge]',
    });
    expect(await rejection(sut.addToUser(ADMIN, user.name, { badge_slugs: [c, a] }))).toMatchObject({
      code: 'conflict',
    });
    expect(await rejection(sut.addToUser(ADMIN, user.name, { badge_slugs: [c, c] }))).toMatchObject({
      code: 'conflict',
    });
    expect(await slugsOf(user)).toEqual([b, a]);
  });

  it('should take away the badges named that the user has, ignoring other slugs', async () => {
    const [a, b] = [await newBadge(), await newBadge()];
    const user = await newUser();
    await sut.addToUser(ADMIN, user.name, { badge_slugs: [a, b] });
    await sut.removeFromUser(ADMIN, user.name, { badge_slugs: [a, 'no-such-badge', 'not a slug/at all'] });
    expect(await slugsOf(user)).toEqual([b]);
  });

  it('should edit only the fields given', async () => {
    const slug = await newBadge();
    const edited = await sut.edit(ADMIN, slug, { image_url: '' });
    expect(edited).toMatchObject({ slug, description: `the ${slug} badge`, image_url: '' });
    expect((await sut.edit(ADMIN, slug, { description: 'new words' })).description).toBe('new words');
  });

  it("should drop every user's holding of a badge deleted from the catalogue", async () => {
    const [gone, kept] = [await newBadge(), await newBadge()];
    const [u1, u2] = [await newUser(), await newUser()];
    await sut.addToUser(ADMIN, u1.name, { badge_slugs: [gone, kept] });
    await sut.addToUser(ADMIN, u2.name, { badge_slugs: [gone] });
    await sut.delete(ADMIN, gone);
    expect(await slugsOf(u1)).toEqual([kept]);
    expect(await slugsOf(u2)).toEqual([]);
    expect(await rejection(sut.delete(ADMIN, gone))).toMatchObject({ code: 'not_found' });
    // A new badge may take the slug again.
    await sut.create(ADMIN, { slug: gone, description: 'back' });
  });

  it('should delete the badges of a deleted account with it', async () => {
    const slug = await newBadge();
    const [leaving, staying] = [await newUser(), await newUser()];
    await sut.addToUser(ADMIN, leaving.name, { badge_slugs: [slug] });
    await sut.addToUser(ADMIN, staying.name, { badge_slugs: [slug] });
    await db.transaction((m) => users.delete(m, leaving.id));
    expect(await db.manager.count(UserBadgeEntity, { where: { userId: leaving.id } })).toBe(0);
    expect(await slugsOf(staying)).toEqual([slug]);
  });

  it('should keep one badge per slug and one row per user and badge even when the service is bypassed', async () => {
    const slug = await newBadge();
    const user = await newUser();
    await sut.addToUser(ADMIN, user.name, { badge_slugs: [slug] });
    const [row] = await db.manager.find(UserBadgeEntity, { where: { userId: user.id } });
    const refusal = (work: Parameters<Database['transaction']>[0]) =>
      db.transaction(work).then(
        () => null,
        (err: unknown) => err,
      );
    expect(
      isUniqueViolation(
        await refusal((m) => m.insert(UserBadgeEntity, { userId: user.id, badgeId: row!.badgeId })),
      ),
    ).toBe(true);
    expect(
      isUniqueViolation(await refusal((m) => m.insert(BadgeEntity, { slug, description: '', imageUrl: '' }))),
    ).toBe(true);
  });
});
