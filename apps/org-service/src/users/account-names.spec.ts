import { renameProblem } from './account-names.js';

describe(renameProblem.name, () => {
  it('should accept usable names', () => {
    expect(renameProblem('new-name.2')).toBeUndefined();
  });

  it('should check the characters before the reserved names, as IsUsableUsername', () => {
    expect(renameProblem('bad name')).toEqual({ kind: 'chars', message: 'name is invalid [bad name]: must be valid alpha or numeric or dash(-_) or dot characters' });
    expect(renameProblem('-dash')).toMatchObject({ kind: 'chars' });
    expect(renameProblem('admin')).toEqual({ kind: 'reserved', message: 'name is reserved [name: admin]' });
    expect(renameProblem('someone.keys')).toMatchObject({ kind: 'pattern' });
  });
});
