import { AccessMode } from '@gitforge/contracts';
import { ALL_UNITS, apiUnits, parseTeamAccess, unitsFromList, unitsFromMap } from './team-units.js';

describe('team units', () => {
  it('should parse only read, write and admin, as Gitea parses user input', () => {
    expect(['read', 'write', 'admin', 'owner', 'none', '', undefined].map(parseTeamAccess)).toEqual([1, 2, 3, 0, 0, 0, 0]);
  });

  it('should drop unit names Gitea does not know', () => {
    expect(unitsFromMap({ 'repo.code': 'write', 'repo.nope': 'admin', 'repo.wiki': 'none' })).toEqual({ 'repo.code': 2, 'repo.wiki': 0 });
    expect(unitsFromList(['repo.issues', 'issues'], AccessMode.read)).toEqual({ 'repo.issues': 1 });
  });

  it('should answer every unit at the team level for admin and owner teams', () => {
    const owners = apiUnits({ units: ALL_UNITS, accessMode: AccessMode.owner });
    expect(owners.units).toHaveLength(10);
    expect(new Set(Object.values(owners.units_map))).toEqual(new Set(['owner']));
  });

  it('should answer stored units in Gitea order with their level names', () => {
    expect(apiUnits({ units: JSON.stringify({ 'repo.wiki': 0, 'repo.code': 1 }), accessMode: AccessMode.read })).toEqual({
      units: ['repo.code', 'repo.wiki'],
      units_map: { 'repo.code': 'read', 'repo.wiki': 'none' },
    });
  });
});
