import { ContractError } from '@gitforge/contracts';
import { optionalBool, parseAdminUserFilter } from './admin-user-filter.js';

describe(parseAdminUserFilter.name, () => {
  it('should sort by name ascending by default', () => {
    expect(parseAdminUserFilter({}).orderBy).toEqual({ column: 'lower_name', direction: 'ASC' });
  });

  it('should ignore order without sort, as Gitea documents', () => {
    expect(parseAdminUserFilter({ order: 'desc' }).orderBy).toEqual({ column: 'lower_name', direction: 'ASC' });
    expect(parseAdminUserFilter({ sort: 'created', order: 'desc' }).orderBy).toEqual({ column: 'created_at', direction: 'DESC' });
  });

  it('should answer 422 for unknown sort, order and visibility values', () => {
    for (const query of [{ sort: 'alpha' }, { sort: 'id', order: 'up' }, { visibility: 'hidden' }]) {
      expect(() => parseAdminUserFilter(query)).toThrow(ContractError);
    }
  });

  it('should read filters the way Gitea parses forms', () => {
    const f = parseAdminUserFilter({ q: ' al ', login_name: 'ext', source_id: '0', visibility: 'limited', is_admin: 'false', is_active: 'maybe' });
    expect(f).toMatchObject({ keyword: 'al', loginName: 'ext', sourceId: undefined, visibility: 'limited', isAdmin: false, isActive: undefined });
  });
});

describe(optionalBool.name, () => {
  it('should follow strconv.ParseBool', () => {
    expect(optionalBool('T')).toBe(true);
    expect(optionalBool('0')).toBe(false);
    expect(optionalBool('')).toBeUndefined();
    expect(optionalBool(undefined)).toBeUndefined();
  });
});
