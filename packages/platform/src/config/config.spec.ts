import { ConfigError, loadConfig, PlatformConfig } from './config.js';

describe(loadConfig.name, () => {
  it('should apply documented defaults', () => {
    const c = loadConfig(PlatformConfig, {});
    expect(c.PORT).toBe(3000);
    expect(c.rootUrl).toBe('http://localhost:3000/');
    expect(c.GITFORGE_DATA_DIR).toBe('./data');
    expect(c.DATABASE_URL).toBeUndefined();
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
});
