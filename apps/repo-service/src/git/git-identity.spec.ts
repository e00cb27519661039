import { gitName } from './git-identity.js';

describe(gitName.name, () => {
  const user = (full_name: string | null, login = 'alice') => ({ id: 7, login, full_name });

  it('should take the full name, else the login', () => {
    expect(gitName(user('Alice Liddell'))).toBe('Alice Liddell');
    expect(gitName(user(''))).toBe('alice');
    expect(gitName(user(null))).toBe('alice');
  });

  it('should drop newlines and angle brackets, and trim, as Gitea does', () => {
    expect(gitName(user(' Alice <admin>\nLiddell '))).toBe('Alice adminLiddell');
  });

  it('should pass over a name git refuses, made only of dots, commas, quotes and the like', () => {
    expect(gitName(user('...'))).toBe('alice');
    expect(gitName(user(' <> ; "\' '))).toBe('alice');
    expect(gitName(user('.', '..'))).toBe('user-7');
    expect(gitName(user('J.'))).toBe('J.');
  });
});
