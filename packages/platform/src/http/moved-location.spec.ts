import { movedLocation } from './gitea-exception.filter.js';

describe('movedLocation (Gitea RedirectToRepo)', () => {
  const d = { from_owner: 'ann', from_repo: 'old', to_owner: 'bob', to_repo: 'new' };

  it('should replace the first owner/name pair of the path and keep the query', () => {
    expect(movedLocation('/api/v1/repos/ann/old/issues?state=all&page=2', d)).toBe('/api/v1/repos/bob/new/issues?state=all&page=2');
    expect(movedLocation('/api/v1/repos/ann/old', d)).toBe('/api/v1/repos/bob/new');
    expect(movedLocation('/api/v1/repos/ann/old/contents/ann/old', d)).toBe('/api/v1/repos/bob/new/contents/ann/old');
  });

  it('should replace the pair after /repos/ even when the same pair of segments comes earlier in the path', () => {
    // A user `v1` with a repository `repos`, and a team id that is also an owner's name.
    const v1 = { from_owner: 'v1', from_repo: 'repos', to_owner: 'v1', to_repo: 'renamed' };
    expect(movedLocation('/api/v1/repos/v1/repos/issues?state=all', v1)).toBe('/api/v1/repos/v1/renamed/issues?state=all');
    const five = { from_owner: '5', from_repo: 'repos', to_owner: 'ann', to_repo: 'x' };
    expect(movedLocation('/api/v1/teams/5/repos/5/repos', five)).toBe('/api/v1/teams/5/repos/ann/x');
    expect(movedLocation('/api/v1/user/starred/ann/old', d)).toBe('/api/v1/user/starred/bob/new');
  });

  it('should match whole segments only', () => {
    expect(movedLocation('/api/v1/repos/ann/older/x', d)).toBeUndefined();
    expect(movedLocation('/api/v1/repos/xann/old', d)).toBeUndefined();
  });

  it('should give nothing for incomplete details', () => {
    expect(movedLocation('/api/v1/repos/ann/old', { from_owner: 'ann' })).toBeUndefined();
    expect(movedLocation('/api/v1/repos/ann/old', undefined)).toBeUndefined();
  });
  it("should replace a renamed owner's old login where it names the account: after users/ or orgs/ (Gitea RedirectToUser)", () => {
    const o = { from_owner: 'ann', to_owner: 'bea' };
    expect(movedLocation('/api/v1/users/ann/repos?page=2', o)).toBe('/api/v1/users/bea/repos?page=2');
    expect(movedLocation('/api/v1/users/ann', o)).toBe('/api/v1/users/bea');
    expect(movedLocation('/api/v1/orgs/ann/teams', o)).toBe('/api/v1/orgs/bea/teams');
    expect(movedLocation('/api/v1/admin/users/ann/keys', o)).toBe('/api/v1/admin/users/bea/keys');
    // Only that segment: not a later one of the same name, not a longer one.
    expect(movedLocation('/api/v1/users/ann/following/ann', o)).toBe('/api/v1/users/bea/following/ann');
    expect(movedLocation('/api/v1/user/following/ann', o)).toBe('/api/v1/user/following/bea');
    expect(movedLocation('/api/v1/users/anna', o)).toBeUndefined();
    expect(movedLocation('/api/v1/repos/ann/x', o)).toBeUndefined();
  });
});
