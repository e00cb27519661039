import { parseRepoPath, parseSshCommand, splitWords } from './ssh-command.js';

describe(parseSshCommand.name, () => {
  it('should accept the git services with a quoted repository path, as git sends them', () => {
    expect(parseSshCommand("git-upload-pack 'alice/proj.git'")).toEqual({
      ok: true,
      command: { kind: 'git', service: 'upload-pack', owner: 'alice', repo: 'proj' },
    });
    expect(parseSshCommand("git-receive-pack '/alice/proj.git'")).toMatchObject({
      ok: true,
      command: { service: 'receive-pack', repo: 'proj' },
    });
    expect(parseSshCommand('git upload-pack alice/proj')).toMatchObject({
      ok: true,
      command: { service: 'upload-pack', owner: 'alice' },
    });
  });

  it('should accept git-lfs-authenticate with an operation', () => {
    expect(parseSshCommand("git-lfs-authenticate 'alice/proj.git' upload")).toEqual({
      ok: true,
      command: { kind: 'lfs-authenticate', operation: 'upload', owner: 'alice', repo: 'proj' },
    });
    expect(parseSshCommand("git-lfs-authenticate 'alice/proj.git' delete")).toMatchObject({ ok: false });
  });

  it('should refuse other commands, traversal, options and extra arguments with a message', () => {
    expect(parseSshCommand('sh -c id')).toEqual({ ok: false, message: 'Unknown git command: sh' });
    expect(parseSshCommand('git-upload-archive alice/proj')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Unknown git command'),
    });
    expect(parseSshCommand("git-upload-pack '../etc/passwd'")).toEqual({
      ok: false,
      message: 'Invalid repository path',
    });
    expect(parseSshCommand("git-upload-pack 'alice/../../x'")).toEqual({
      ok: false,
      message: 'Invalid repository path',
    });
    expect(parseSshCommand('git-upload-pack --upload-pack=touch')).toEqual({
      ok: false,
      message: 'Invalid repository path',
    });
    expect(parseSshCommand('git-upload-pack alice/-x')).toEqual({
      ok: false,
      message: 'Invalid repository path',
    });
    expect(parseSshCommand('git-upload-pack alice/proj --strict')).toEqual({
      ok: false,
      message: 'Too many arguments',
    });
    expect(parseSshCommand('git-upload-pack')).toEqual({ ok: false, message: 'Missing repository path' });
    expect(parseSshCommand("git-upload-pack 'alice/proj")).toEqual({ ok: false, message: 'Invalid command' });
    expect(parseSshCommand('')).toEqual({ ok: false, message: 'Invalid command' });
    expect(parseSshCommand('git-upload-pack alice/proj; rm -rf /')).toMatchObject({ ok: false });
  });
});

describe(splitWords.name, () => {
  it('should split quotes and escapes without expanding anything', () => {
    expect(splitWords(`a 'b c' "d \\"e\\"" f\\ g $HOME`)).toEqual(['a', 'b c', 'd "e"', 'f g', '$HOME']);
    expect(splitWords('a\nb')).toBeNull();
  });
});

describe(parseRepoPath.name, () => {
  it('should keep names with dots, dashes and underscores inside', () => {
    expect(parseRepoPath('my-org/my.repo_1.git')).toEqual({ owner: 'my-org', repo: 'my.repo_1' });
    expect(parseRepoPath('a/b/c')).toBeNull();
    expect(parseRepoPath('.hidden/x')).toBeNull();
  });
});
