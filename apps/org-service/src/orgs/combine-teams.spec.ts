import { AccessMode } from '@gitforge/contracts';
import type { TeamEntity } from './org.entities.js';
import { combineTeams } from './orgs.service.js';

const team = (accessMode: number, units: Record<string, number> | null): TeamEntity =>
  ({ accessMode, units: units ? JSON.stringify(units) : '{}' }) as TeamEntity;

describe(combineTeams.name, () => {
  it('should make members of an admin team owners of the repository, every unit included', () => {
    expect(combineTeams([team(AccessMode.admin, null)])).toEqual({ mode: AccessMode.owner, units: { '*': AccessMode.owner } });
  });

  it('should keep unit levels of limited teams and take the highest level over several teams', () => {
    const access = combineTeams([team(AccessMode.read, { 'repo.code': 1, 'repo.issues': 2 }), team(AccessMode.write, { 'repo.code': 2 })]);
    expect(access).toEqual({ mode: AccessMode.write, units: { 'repo.code': 2, 'repo.issues': 2 } });
  });
});
