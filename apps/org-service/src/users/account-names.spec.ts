import { renameProblem } from './account-names.js';

describe(renameProblem.name, () => {
  it('should accept usable names', () => {
    expect(renameProblem('new-name.2')).toBeUndefined();
  });

  it('should check the characters before the reserved names, as IsUsableUsername', () => {
    expect(renameProblem('bad name')).toBe('name is invalid [bad name]: must be valid alpha or numeric or dash(-_) or dot characters');
    expect(renameProblem('-dash')).toMatch(/^name is invalid/);
    expect(renameProblem('admin')).toBe('name is reserved [name: admin]');
    expect(renameProblem('someone.keys')).toBe('name pattern is not allowed [pattern: *.keys]');
  });
});
