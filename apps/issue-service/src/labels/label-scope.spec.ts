import { addKeepingScopes, exclusiveScope, keepOnePerScope } from './label-scope.js';

const label = (id: number, name: string, exclusive = true) => ({ id, name, exclusive });

describe(exclusiveScope.name, () => {
  it('should take the part before the last slash of an exclusive label', () => {
    expect(exclusiveScope(label(1, 'kind/bug'))).toBe('kind');
    expect(exclusiveScope(label(1, 'a/b/c'))).toBe('a/b');
  });

  it('should give no scope to unscoped, non-exclusive or badly slashed names', () => {
    expect(exclusiveScope(label(1, 'kind/bug', false))).toBe('');
    expect(exclusiveScope(label(1, 'bug'))).toBe('');
    expect(exclusiveScope(label(1, '/bug'))).toBe('');
    expect(exclusiveScope(label(1, 'kind/'))).toBe('');
  });
});

describe(keepOnePerScope.name, () => {
  it('should keep the last label given of each exclusive scope and every other label', () => {
    const bug = label(1, 'kind/bug');
    const feature = label(2, 'kind/feature');
    const plain = label(3, 'kind/docs', false);
    const high = label(4, 'prio/high');
    expect(keepOnePerScope([bug, plain, feature, high])).toEqual([plain, feature, high]);
  });
});

describe(addKeepingScopes.name, () => {
  const bug = label(1, 'kind/bug');
  const feature = label(2, 'kind/feature');
  const docs = label(3, 'docs', false);
  const high = label(4, 'prio/high');

  it('should remove the labels of the scope of a newly added exclusive label', () => {
    expect(addKeepingScopes([bug, docs, high], [feature])).toEqual([docs, high, feature]);
  });

  it('should skip labels already there without touching their scope', () => {
    expect(addKeepingScopes([bug, docs], [bug, docs])).toEqual([bug, docs]);
  });

  it('should let the last of several new labels of one scope win, as adding one by one does', () => {
    expect(addKeepingScopes([], [bug, feature])).toEqual([feature]);
    expect(addKeepingScopes([bug], [feature, bug])).toEqual([bug]);
  });

  it('should leave non-exclusive labels sharing a prefix alone', () => {
    const loose = label(5, 'kind/question', false);
    expect(addKeepingScopes([loose], [bug])).toEqual([loose, bug]);
  });
});
