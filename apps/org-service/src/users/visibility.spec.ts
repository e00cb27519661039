import type { Visibility } from '@gitforge/contracts';
import { canSeeProfile, hasOrgOrUserVisible, individualVisible, type Viewer } from './visibility.js';

const viewer = (over: Partial<NonNullable<Viewer>> = {}): Viewer => ({ id: 10, isAdmin: false, isRestricted: false, ...over });
const owner = (visibility: Visibility, isOrganization = false) => ({ id: 1, visibility, isOrganization });
const never = () => Promise.reject(new Error('not asked'));

describe('visibility', () => {
  describe(hasOrgOrUserVisible.name, () => {
    it.each([
      ['public', null, true],
      ['limited', null, false],
      ['private', null, false],
      ['limited', viewer(), true],
      ['private', viewer({ isAdmin: true }), true],
      ['private', viewer({ id: 1 }), true],
    ] as const)('should decide a %s owner for %p without asking about membership', async (visibility, v, expected) => {
      expect(await hasOrgOrUserVisible(owner(visibility), v, never)).toBe(expected);
    });

    it('should leave private owners, and every owner for restricted viewers, to membership', async () => {
      expect(await hasOrgOrUserVisible(owner('private'), viewer(), async () => true)).toBe(true);
      expect(await hasOrgOrUserVisible(owner('private'), viewer(), async () => false)).toBe(false);
      expect(await hasOrgOrUserVisible(owner('public'), viewer({ isRestricted: true }), async () => false)).toBe(false);
    });
  });

  describe(canSeeProfile.name, () => {
    it('should show a private user to itself and site admins only', async () => {
      const related = async () => ({ followsViewer: true, sharesTeam: true });
      expect(await canSeeProfile(owner('private'), viewer(), related)).toBe(false);
      expect(await canSeeProfile(owner('private'), viewer({ isAdmin: true }), related)).toBe(true);
      expect(await canSeeProfile(owner('private'), viewer({ id: 1 }), related)).toBe(true);
    });

    it('should show a limited user to unrestricted signed-in viewers', async () => {
      expect(await canSeeProfile(owner('limited'), null, never)).toBe(false);
      expect(await canSeeProfile(owner('limited'), viewer(), never)).toBe(true);
      expect(await canSeeProfile(owner('limited'), viewer({ isRestricted: true }), never)).toBe(false);
    });

    it('should show a private organization to those who share a team with it', async () => {
      expect(await canSeeProfile(owner('private', true), viewer(), async () => ({ followsViewer: false, sharesTeam: true }))).toBe(true);
      expect(await canSeeProfile(owner('private', true), viewer(), async () => ({ followsViewer: false, sharesTeam: false }))).toBe(false);
      expect(await canSeeProfile(owner('private', true), null, never)).toBe(false);
    });
  });

  describe(individualVisible.name, () => {
    it('should show private users to themselves and site admins, limited ones to signed-in callers', () => {
      expect(individualVisible(owner('private'), { id: 1, isAdmin: false })).toBe(true);
      expect(individualVisible(owner('private'), { id: 2, isAdmin: true })).toBe(true);
      expect(individualVisible(owner('private'), { id: 2, isAdmin: false })).toBe(false);
      expect(individualVisible(owner('limited'), { id: 2, isAdmin: false })).toBe(true);
      expect(individualVisible(owner('limited'), null)).toBe(false);
      expect(individualVisible(owner('private', true), null)).toBe(true);
    });
  });
});
