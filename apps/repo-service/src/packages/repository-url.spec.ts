import { forgeRepository } from './repository-url.js';

describe(forgeRepository.name, () => {
  const forge = { rootUrl: 'https://forge.example.com/sub/', sshDomain: 'ssh.example.com' };
  const parse = (url: string) => forgeRepository(url, forge);

  it("should read this forge's HTTP and SSH URLs of a repository, .git or not", () => {
    expect(parse('https://forge.example.com/sub/alice/tool.git')).toEqual({ owner: 'alice', repo: 'tool' });
    expect(parse('https://FORGE.example.com/sub/alice/tool/src/branch/main')).toEqual({ owner: 'alice', repo: 'tool' });
    expect(parse('ssh://git@ssh.example.com:2222/alice/tool.git')).toEqual({ owner: 'alice', repo: 'tool' });
    expect(parse('git+ssh://git@ssh.example.com/alice/tool')).toEqual({ owner: 'alice', repo: 'tool' });
    expect(parse('git@ssh.example.com:alice/tool.git')).toEqual({ owner: 'alice', repo: 'tool' });
    expect(parse('ssh.example.com:alice/tool.git')).toEqual({ owner: 'alice', repo: 'tool' });
  });

  it("should name nothing for other hosts, paths outside the root URL, other schemes and owner-only paths, as Gitea's ParseRepositoryURL", () => {
    for (const url of [
      'https://github.com/alice/tool.git',
      'https://forge.example.com/alice/tool.git',
      'http://forge.example.com/sub/alice/tool.git',
      'git+https://forge.example.com/sub/alice/tool.git',
      'git@github.com:alice/tool.git',
      'https://forge.example.com/sub/alice',
      '/srv/git/tool.git',
      'github:alice/tool',
      '',
      'https://forge.example.com/sub/%E0%A4%A/tool',
    ]) {
      expect(parse(url)).toBeNull();
    }
  });
});
