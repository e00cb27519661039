import { AccessMode, accessModeName, RepoUnitKeys } from '@gitforge/contracts';
import type { TeamEntity } from '../orgs/org.entities.js';

/**
 * A team's units are stored as JSON, unit name → AccessMode. Admin and owner teams store `{}`:
 * they have every unit at their own level (Gitea's HasAdminAccess short-cut), which
 * `orgs.access` reports as the `*` unit to repo-service's permission resolver.
 */
export const ALL_UNITS = '{}';

const isUnitKey = (key: string): boolean => (RepoUnitKeys as readonly string[]).includes(key);

export function storedUnits(team: Pick<TeamEntity, 'units'>): Record<string, number> {
  return JSON.parse(team.units || ALL_UNITS) as Record<string, number>;
}

/** Gitea's ParseAccessMode for user input: `read`, `write`, `admin`; anything else (even `owner`) is none. */
export function parseTeamAccess(permission: string | undefined): number {
  switch (permission) {
    case 'read':
      return AccessMode.read;
    case 'write':
      return AccessMode.write;
    case 'admin':
      return AccessMode.admin;
    default:
      return AccessMode.none;
  }
}

/**
 * The level a `units` list gives each unit (Gitea's ParseAccessMode(permission, read, write)):
 * the permission when it is read or write, none otherwise, also when it is absent.
 */
export function unitsListAccess(permission: string | undefined): number {
  const mode = parseTeamAccess(permission);
  return mode === AccessMode.read || mode === AccessMode.write ? mode : AccessMode.none;
}

/** `units_map` → stored units; names Gitea does not know are dropped. */
export function unitsFromMap(map: Record<string, string>): Record<string, number> {
  const units: Record<string, number> = {};
  for (const [key, level] of Object.entries(map)) if (isUnitKey(key)) units[key] = parseTeamAccess(level);
  return units;
}

/** The deprecated `units` list: every listed unit at the team's level. */
export function unitsFromList(list: string[], mode: number): Record<string, number> {
  const units: Record<string, number> = {};
  for (const key of list) if (isUnitKey(key)) units[key] = mode;
  return units;
}

/** Gitea's GetUnitNames and GetUnitsMap, in Gitea's unit order. */
export function apiUnits(team: Pick<TeamEntity, 'units' | 'accessMode'>): { units: string[]; units_map: Record<string, string> } {
  if (team.accessMode >= AccessMode.admin) {
    const level = accessModeName(team.accessMode);
    return { units: [...RepoUnitKeys], units_map: Object.fromEntries(RepoUnitKeys.map((k) => [k, level])) };
  }
  const stored = storedUnits(team);
  const keys = RepoUnitKeys.filter((k) => k in stored);
  return { units: keys, units_map: Object.fromEntries(keys.map((k) => [k, accessModeName(stored[k]!)])) };
}
