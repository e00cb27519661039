import { renameProblem, RENAME_FORM_MESSAGES } from './account-names.js';

describe(renameProblem.name, () => {
  it('should accept usable names', () => {
    expect(renameProblem('new-name.2')).toBeUndefined();
  });

  it('should check the characters before the reserved names, as IsUsableUsername', () => {
    expect(renameProblem('bad name')).toMatchObject({ kind: 'chars' });
    expect(renameProblem('-dash')).toMatchObject({ kind: 'chars' });
    expect(renameProblem('admin')).toEqual({ kind: 'reserved', message: 'name is reserved [name: admin]' });
    expect(renameProblem('someone.keys')).toMatchObject({ kind: 'pattern' });
  });

  it("should word admin answers as Gitea's en-US form messages", () => {
    expect(RENAME_FORM_MESSAGES.taken('x')).toBe('The username is already taken.');
    expect(RENAME_FORM_MESSAGES.reserved('admin')).toBe('The username "admin" is reserved.');
  });
});
