import { adoptedDefaultBranch } from './adoption.js';

describe('adoptedDefaultBranch', () => {
  it('should prefer main, then master, then the branch HEAD names, then the first by name', () => {
    expect(adoptedDefaultBranch(['a', 'main', 'master'], 'a')).toBe('main');
    expect(adoptedDefaultBranch(['a', 'master'], 'a')).toBe('master');
    expect(adoptedDefaultBranch(['a', 'dev'], 'dev')).toBe('dev');
    expect(adoptedDefaultBranch(['b', 'c'], 'gone')).toBe('b');
    expect(adoptedDefaultBranch(['b', 'c'], null)).toBe('b');
  });

  it('should answer null without branches, and pass over names it could not set HEAD to', () => {
    expect(adoptedDefaultBranch([], 'main')).toBeNull();
    expect(adoptedDefaultBranch(['-x', 'ok'], '-x')).toBe('ok');
  });
});
