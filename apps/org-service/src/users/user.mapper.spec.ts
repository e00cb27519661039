import type { Actor } from '@gitforge/contracts';
import { UserEntity } from './user.entity.js';
import { toUser, toUserWithAccess } from './user.mapper.js';

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return Object.assign(new UserEntity(), {
    id: 5,
    name: 'Alice',
    lowerName: 'alice',
    fullName: 'Alice A',
    email: 'alice@example.com',
    keepEmailPrivate: false,
    loginName: 'ext',
    loginSource: 0,
    type: 0,
    language: 'en-US',
    isAdmin: false,
    isActive: true,
    prohibitLogin: false,
    isRestricted: false,
    visibility: 'public',
    location: '',
    website: '',
    description: '',
    numFollowers: 0,
    numFollowing: 0,
    numStars: 0,
    createdAt: new Date('2024-01-02T03:04:05.678Z'),
    updatedAt: new Date(),
    lastLoginAt: new Date('2024-02-02T00:00:00Z'),
    ...overrides,
  });
}
const viewer = (id: number, isAdmin = false): Actor => ({ id, login: 'v', isAdmin, scopes: null });

describe(toUser.name, () => {
  it('should show private fields to the user and admins only', () => {
    const self = toUser(user(), viewer(5), 'http://h/');
    expect(self).toMatchObject({ login: 'Alice', email: 'alice@example.com', language: 'en-US', active: true, login_name: 'ext' });
    expect(self.created).toBe('2024-01-02T03:04:05Z');
    const other = toUser(user(), viewer(9), 'http://h/');
    expect(other).toMatchObject({ email: 'alice@example.com', language: '', active: false, login_name: '', last_login: '0001-01-01T00:00:00Z' });
    expect(toUser(user(), null, 'http://h/').email).toBe('5+alice@noreply.h');
    expect(toUser(user({ keepEmailPrivate: true }), viewer(9), 'http://h/').email).toBe('5+alice@noreply.h');
    expect(toUser(user({ keepEmailPrivate: true }), viewer(1, true), 'http://h/').email).toBe('alice@example.com');
  });
});

describe(toUserWithAccess.name, () => {
  it('should show the e-mail unless kept private and never the fields of the user itself', () => {
    expect(toUserWithAccess(user(), 'http://h/')).toMatchObject({ email: 'alice@example.com', active: false, is_admin: false, language: '', login_name: '' });
    expect(toUserWithAccess(user({ keepEmailPrivate: true }), 'http://h/').email).toBe('5+alice@noreply.h');
  });
});
