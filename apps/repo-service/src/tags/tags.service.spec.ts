import { cleanTagMessage } from './tags.service.js';

describe(cleanTagMessage.name, () => {
  it('should strip trailing blanks and outer empty lines, collapse inner ones, and end with a newline', () => {
    expect(cleanTagMessage('\n\nSecond  \n\n\n\nrelease\t\n\n')).toBe('Second\n\nrelease\n');
    expect(cleanTagMessage('one\r\ntwo')).toBe('one\ntwo\n');
  });

  it('should leave nothing of a blank message, so the tag is lightweight', () => {
    expect(cleanTagMessage('  \n \n')).toBe('');
  });
});
