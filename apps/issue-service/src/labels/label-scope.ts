import type { LabelEntity } from './label.entity.js';

/** The scope of a scoped label (`kind/bug` → `kind`), or '' for an unscoped one (Gitea's Label.ExclusiveScope). */
export function exclusiveScope(label: Pick<LabelEntity, 'name' | 'exclusive'>): string {
  if (!label.exclusive) return '';
  const at = label.name.lastIndexOf('/');
  return at <= 0 || at === label.name.length - 1 ? '' : label.name.slice(0, at);
}

/**
 * Labels that may stand together: of several exclusive labels of one scope only the last one
 * given stays (Gitea keeps one label per exclusive scope).
 */
export function keepOnePerScope<L extends Pick<LabelEntity, 'name' | 'exclusive'>>(labels: L[]): L[] {
  const lastOfScope = new Map<string, L>();
  for (const l of labels) {
    const scope = exclusiveScope(l);
    if (scope) lastOfScope.set(scope, l);
  }
  return labels.filter((l) => {
    const scope = exclusiveScope(l);
    return !scope || lastOfScope.get(scope) === l;
  });
}

/**
 * The labels of an issue after adding `added` to `current`, as Gitea adds them one at a time: a
 * label already there is skipped, and a new exclusive label removes the others of its scope
 * (so of several given for one scope, the last one stays).
 */
export function addKeepingScopes<L extends Pick<LabelEntity, 'id' | 'name' | 'exclusive'>>(current: L[], added: L[]): L[] {
  let result = [...current];
  for (const label of added) {
    if (result.some((l) => l.id === label.id)) continue;
    const scope = exclusiveScope(label);
    if (scope) result = result.filter((l) => exclusiveScope(l) !== scope);
    result.push(label);
  }
  return result;
}
