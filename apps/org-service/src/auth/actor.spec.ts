import { ContractError, type Actor } from '@gitforge/contracts';
import { rejectPublicOnly, rejectPublicOnlyOrg, rejectPublicOnlyUser } from './actor.js';

const actor = (scopes: string[] | null): Actor => ({ id: 1, login: 'a', isAdmin: false, scopes });
const account = (visibility: 'public' | 'limited' | 'private', isOrganization: boolean) => ({ visibility, type: isOrganization ? 1 : 0, isOrganization });

describe('public-only token rules', () => {
  it('should stop public-only tokens at users that are not public', () => {
    expect(() => rejectPublicOnlyUser(actor(['public-only', 'read:user']), account('limited', false))).toThrow('token scope is limited to public users');
    expect(() => rejectPublicOnlyUser(actor(['public-only', 'read:user']), account('public', false))).not.toThrow();
    expect(() => rejectPublicOnlyUser(actor(['read:user']), account('private', false))).not.toThrow();
    expect(() => rejectPublicOnlyUser(null, account('private', false))).not.toThrow();
  });

  it('should stop public-only tokens at organizations that are not public', () => {
    expect(() => rejectPublicOnlyOrg(actor(['public-only', 'read:organization']), account('limited', true))).toThrow('token scope is limited to public orgs');
    expect(() => rejectPublicOnlyOrg(actor(['public-only', 'read:organization']), account('public', true))).not.toThrow();
    expect(() => rejectPublicOnlyOrg(actor(null), account('private', true))).not.toThrow();
  });

  it('should refuse public-only tokens on private account data with 403', () => {
    try {
      rejectPublicOnly(actor(['public-only', 'all']));
      throw new Error('not refused');
    } catch (err) {
      expect(err).toBeInstanceOf(ContractError);
      expect((err as ContractError).code).toBe('permission_denied');
    }
  });
});
