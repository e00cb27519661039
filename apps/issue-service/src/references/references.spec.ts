import { findIssueReferences, findIssueReferencesInMarkdown } from './references.js';

describe('findIssueReferences (Gitea modules/references)', () => {
  it('should find references in the same repository and in others, with # or !', () => {
    expect(findIssueReferences('see #1 and !2, then alice/tools#3.')).toEqual([
      { index: 1, action: 'none' },
      { index: 2, action: 'none' },
      { owner: 'alice', name: 'tools', index: 3, action: 'none' },
    ]);
    expect(findIssueReferences('#4 #5')).toEqual([
      { index: 4, action: 'none' },
      { index: 5, action: 'none' },
    ]);
    expect(findIssueReferences('(#6) [#7]')).toEqual([
      { index: 6, action: 'none' },
      { index: 7, action: 'none' },
    ]);
  });

  it('should take the action of a keyword right before a reference, in any case, with an optional colon', () => {
    expect(findIssueReferences('Fixes #1')).toEqual([{ index: 1, action: 'closes' }]);
    expect(findIssueReferences('this closes: #2 and resolves owner/repo#3')).toEqual([
      { index: 2, action: 'closes' },
      { owner: 'owner', name: 'repo', index: 3, action: 'closes' },
    ]);
    expect(findIssueReferences('REOPENS #4')).toEqual([{ index: 4, action: 'reopens' }]);
    expect(findIssueReferences('closes (#5)')).toEqual([{ index: 5, action: 'none' }]);
    expect(findIssueReferences('fixes  #6')).toEqual([{ index: 6, action: 'none' }]);
    expect(findIssueReferences('prefixes #7')).toEqual([{ index: 7, action: 'none' }]);
  });

  it('should not take what only looks like a reference', () => {
    for (const text of ['a#1', '#1a', '#', '#0', 'x/y#', 'issue#12', 'url/#3', `#${'9'.repeat(30)}`]) expect(findIssueReferences(text)).toEqual([]);
  });
});

describe('findIssueReferencesInMarkdown (Gitea FindAllIssueReferencesMarkdown)', () => {
  it('should leave out references in fenced code blocks and code spans', () => {
    const text = ['see #1', '```', 'fixes #2', '```', 'and `#3` but #4', '~~~~js', '#5', '~~~', '#6 still code', '~~~~', 'closes #7'].join('\n');
    expect(findIssueReferencesInMarkdown(text)).toEqual([
      { index: 1, action: 'none' },
      { index: 4, action: 'none' },
      { index: 7, action: 'closes' },
    ]);
  });

  it('should read an unclosed fence as code to the end', () => {
    expect(findIssueReferencesInMarkdown('#1\n```\n#2')).toEqual([{ index: 1, action: 'none' }]);
  });
});
