import { ConfigError, loadConfig, PlatformConfig } from './config.js';

describe(loadConfig.name, () => {
  it('should apply documented defaults', () => {
    const c = loadConfig(PlatformConfig, {});
    expect(c.PORT).toBe(3000);
    expect(c.rootUrl).toBe('http://localhost:3000/');
    expect(c.GITFORGE_DATA_DIR).toBe('./data');
    expect(c.DATABASE_URL).toBeUndefined();
    // Unset, each process's heap role decides (tuneHeap).
    expect(c.GITFORGE_HEAP_GROWING_PERCENT).toBeUndefined();
  });

  it('should convert numbers, add the trailing slash and treat empty values as unset', () => {
    const c = loadConfig(PlatformConfig, { PORT: '8080', GITFORGE_ROOT_URL: 'https://git.example.com', REDIS_URL: '' });
    expect(c.PORT).toBe(8080);
    expect(c.rootUrl).toBe('https://git.example.com/');
    expect(c.REDIS_URL).toBeUndefined();
  });

  it('should list every bad key at once', () => {
    expect(() => loadConfig(PlatformConfig, { PORT: 'x', DATABASE_URL: 'mysql://nope' })).toThrow(ConfigError);
    try {
      loadConfig(PlatformConfig, { PORT: 'x', DATABASE_URL: 'mysql://nope' });
    } catch (err) {
      expect(String(err)).toContain('PORT');
      expect(String(err)).toContain('DATABASE_URL');
    }
  });

  it("should build ssh_url's base from the SSH port, domain and public port, as Gitea does", () => {
    expect(loadConfig(PlatformConfig, { GITFORGE_ROOT_URL: 'https://git.example.com/' }).sshUrlBase).toBe('ssh://git@git.example.com:2222/');
    expect(loadConfig(PlatformConfig, { GITFORGE_ROOT_URL: 'https://git.example.com/', GITFORGE_SSH_PUBLIC_PORT: '22' }).sshUrlBase).toBe('git@git.example.com:');
    expect(loadConfig(PlatformConfig, { GITFORGE_SSH_DOMAIN: 'ssh.example.com', GITFORGE_SSH_PORT: '2022' }).sshUrlBase).toBe('ssh://git@ssh.example.com:2022/');
  });
});
