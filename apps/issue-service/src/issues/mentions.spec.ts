import { mentionedLogins } from './mentions.js';

describe(mentionedLogins.name, () => {
  it('should find mentions at the start, after spaces and punctuation, once each, lower-cased', () => {
    expect(mentionedLogins('@Alice and (@bob), @alice again\n@carol.d')).toEqual(['alice', 'bob', 'carol.d']);
  });

  it('should skip e-mail addresses, code and trailing punctuation', () => {
    expect(mentionedLogins('mail a@b.c, `@code` and\n```\n@block\n```\n@dave.')).toEqual(['dave']);
  });
});
