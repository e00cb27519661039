import { HostMatcher } from './host-matcher.js';

describe(HostMatcher.name, () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['::1', false],
    ['10.1.2.3', false],
    ['172.20.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::ffff:127.0.0.1', false],
    ['64:ff9b::a9fe:a9fe', false],
  ])('should allow only external addresses by default: %s → %p', (ip, allowed) => {
    expect(new HostMatcher('external').allows('example.com', ip)).toBe(allowed);
  });

  it('should allow loopback when listed, and nothing else private', () => {
    const m = new HostMatcher('external,loopback');
    expect(m.allows('localhost', '127.0.0.1')).toBe(true);
    expect(m.allows('localhost', '::1')).toBe(true);
    expect(m.allows('metadata', '169.254.169.254')).toBe(false);
    expect(m.allows('lan', '192.168.0.10')).toBe(false);
  });

  it('should allow private ranges with `private`, CIDRs, host globs and `*`', () => {
    expect(new HostMatcher('private').allows('lan', '10.0.0.5')).toBe(true);
    expect(new HostMatcher('private').allows('pub', '93.184.216.34')).toBe(false);
    expect(new HostMatcher('10.9.0.0/16').allows('x', '10.9.3.4')).toBe(true);
    expect(new HostMatcher('10.9.0.0/16').allows('x', '10.8.3.4')).toBe(false);
    expect(new HostMatcher('*.internal.test').allows('ci.internal.test', '10.0.0.1')).toBe(true);
    expect(new HostMatcher('*.internal.test').allows('ci.other.test', '10.0.0.1')).toBe(false);
    expect(new HostMatcher('*').allows('anything', '127.0.0.1')).toBe(true);
  });

  it('should answer a host and address asked again as the first time, the host counting as much as the address', () => {
    const m = new HostMatcher('external,*.internal.test');
    const asked = (): boolean[] => [m.allows('ci.internal.test', '10.0.0.1'), m.allows('ci.other.test', '10.0.0.1'), m.allows('ci.other.test', '93.184.216.34')];
    expect(asked()).toEqual([true, false, true]);
    expect(asked()).toEqual([true, false, true]);
  });
});
