import { BlockList, isIP } from 'node:net';
import { compileGlob, type Pattern } from '@gitforge/contracts';

const cidrs = (list: string[]): BlockList => {
  const bl = new BlockList();
  for (const cidr of list) {
    const [net, prefix] = cidr.split('/');
    bl.addSubnet(net!, Number(prefix), isIP(net!) === 6 ? 'ipv6' : 'ipv4');
  }
  return bl;
};

const LOOPBACK = cidrs(['127.0.0.0/8', '::1/128']);
/** RFC 1918 / RFC 4193 plus Gitea's reserved special-purpose ranges (CGNAT, cloud metadata, NAT64, 6to4, …). */
const PRIVATE = cidrs([
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
  '100.64.0.0/10',
  '168.63.129.16/32',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '100::/64',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '2001::/32',
  '2001:10::/28',
  '2001:20::/28',
  '2001:db8::/32',
  '2002::/16',
]);
/** Not global unicast: "this network" (0.0.0.0/8, which Linux routes to the local host), link-local (cloud metadata at 169.254.169.254), multicast, broadcast. */
const NOT_GLOBAL = cidrs(['0.0.0.0/8', '169.254.0.0/16', '224.0.0.0/4', '255.255.255.255/32', '::/128', 'fe80::/10', 'ff00::/8']);

const family = (ip: string): 'ipv4' | 'ipv6' => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** An IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address. */
export function normalizeIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

export const isLoopbackIp = (ip: string): boolean => LOOPBACK.check(ip, family(ip));
export const isPrivateIp = (ip: string): boolean => PRIVATE.check(ip, family(ip));
export const isExternalIp = (ip: string): boolean => !isLoopbackIp(ip) && !NOT_GLOBAL.check(ip, family(ip)) && !isPrivateIp(ip);

/**
 * Gitea's hostmatcher: an allow list of `external`, `private`, `loopback`, `*`, host globs and
 * CIDRs. A connection is allowed when the host name matches a glob or the address it resolved
 * to is in one of the listed networks.
 */
export class HostMatcher {
  private readonly builtins = new Set<string>();
  private readonly patterns: Pattern[] = [];
  private readonly networks = new BlockList();
  private matchAll = false;
  /**
   * Answers given, by host and address: the answer depends on nothing else, and working it out
   * (globs, then BlockList checks that build a SocketAddress each) was a few per cent of a
   * delivery's CPU. Bounded: cleared when full.
   */
  private readonly answers = new Map<string, boolean>();

  constructor(readonly setting: string) {
    for (const raw of setting.split(',')) {
      const s = raw.trim().toLowerCase();
      if (!s) continue;
      const [net, prefix] = s.split('/');
      if (prefix !== undefined && isIP(net!) && /^\d+$/.test(prefix)) {
        this.networks.addSubnet(net!, Number(prefix), family(net!));
      } else if (s === 'external' || s === 'private' || s === 'loopback') {
        this.builtins.add(s);
      } else if (s === '*') {
        this.matchAll = true;
      } else {
        try {
          this.patterns.push(compileGlob(s));
        } catch {
          // An unusable pattern allows nothing, as Gitea's filepath.Match errors do.
        }
      }
    }
  }

  private matchHostName(host: string): boolean {
    const h = host.toLowerCase();
    return this.patterns.some((p) => p.test(h));
  }

  private matchIp(address: string): boolean {
    const ip = normalizeIp(address);
    if (this.matchAll) return true;
    if (this.builtins.has('external') && isExternalIp(ip)) return true;
    if (this.builtins.has('private') && isPrivateIp(ip)) return true;
    if (this.builtins.has('loopback') && isLoopbackIp(ip)) return true;
    return this.networks.check(ip, family(ip));
  }

  /** Whether a connection to `ip` (resolved from `host`) is allowed. */
  allows(host: string, ip: string): boolean {
    const key = `${host}\n${ip}`;
    let allowed = this.answers.get(key);
    if (allowed === undefined) {
      allowed = this.matchHostName(host) || this.matchHostName(normalizeIp(ip)) || this.matchIp(ip);
      if (this.answers.size >= 10_000) this.answers.clear();
      this.answers.set(key, allowed);
    }
    return allowed;
  }
}
