import { emailProblem, emailProblemMessage } from './email-validation.js';

describe(emailProblem.name, () => {
  it.each(['a@example.com', "o'brien+x@sub.example.org", 'x@localhost'])('should accept %s', (email) => {
    expect(emailProblem(email)).toBeUndefined();
  });

  it.each([
    ['', 'invalid'],
    ['-a@example.com', 'invalid'],
    ['no-at-sign', 'unsupported_character'],
    ['a b@example.com', 'unsupported_character'],
    ['a@-example.com', 'unsupported_character'],
  ])('should refuse %p as %s', (email, problem) => {
    expect(emailProblem(email)).toBe(problem);
  });

  it('should word the problems as Gitea does', () => {
    expect(emailProblemMessage('invalid', '')).toBe('e-mail invalid [email: ]');
    expect(emailProblemMessage('unsupported_character', 'a b')).toBe('e-mail address contains unsupported character [email: a b]');
  });
});
