import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Ranges no receiver may resolve to, unless WEBHOOK_ALLOWED_TARGET_RANGES names them. */
const FORBIDDEN_V4: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];
const FORBIDDEN_V6: readonly [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard'],
  ['2001::', 32, 'Teredo'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4'],
  ['fc00::', 7, 'unique local (private)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

export class TargetRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`${host}: ${reason}`);
    this.name = 'TargetRefusedError';
  }
}

/** Every address a host name resolves to (dns.lookup with `all`). */
export type HostLookup = (host: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: HostLookup = (host) => lookup(host, { all: true });

/** An address a receiver's host name resolved to and that passed the checks: connect to exactly this. */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Refuses receivers that resolve to loopback, private, link-local (metadata), CGNAT, multicast, reserved or
 * documentation addresses, IPv4 and IPv6, with IPv4-mapped, NAT64 and IPv4-compatible IPv6 judged by the IPv4 address
 * inside them; the allowed ranges (WEBHOOK_ALLOWED_TARGET_RANGES) win over these.
 */
export class TargetGuard {
  private readonly allowed = new BlockList();
  private readonly forbidden = FORBIDDEN_V4.map(([network, prefix, reason]) => ({
    list: blockList(network, prefix, 'ipv4'),
    reason,
  })).concat(
    FORBIDDEN_V6.map(([network, prefix, reason]) => ({ list: blockList(network, prefix, 'ipv6'), reason })),
  );

  /** `lookupHost`: the system resolver; tests give one whose answers they change. */
  constructor(
    allowedRanges: readonly string[],
    private readonly lookupHost: HostLookup = systemLookup,
  ) {
    for (const range of allowedRanges) {
      const [network, prefix] = range.split('/');
      this.allowed.addSubnet(network, Number(prefix), isIP(network) === 6 ? 'ipv6' : 'ipv4');
    }
  }

  /** Why this address may not be a receiver, or null when it may. */
  refusal(address: string): string | null {
    const normalized = normalizeAddress(address);
    if (normalized === null) return 'not an IP address';
    const type = isIP(normalized) === 4 ? 'ipv4' : 'ipv6';
    if (this.allowed.check(normalized, type)) return null;
    const hit = this.forbidden.find(({ list }) => list.check(normalized, type));
    return hit ? `resolves to a ${hit.reason} address (${address})` : null;
  }

  /** Resolves `host` and checks every address it has; the first is the one to connect to. */
  async resolve(host: string): Promise<CheckedAddress> {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await this.lookupHost(bare);
    } catch {
      throw new TargetRefusedError(host, 'does not resolve');
    }
    if (addresses.length === 0) throw new TargetRefusedError(host, 'does not resolve');
    for (const { address } of addresses) {
      const reason = this.refusal(address);
      if (reason !== null) throw new TargetRefusedError(host, reason);
    }
    return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
  }
}

function blockList(network: string, prefix: number, type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, type);
  return list;
}

/**
 * The address to judge: IPv4 as it is; IPv6 that carries an IPv4 address (::ffff:a.b.c.d mapped, 64:ff9b::/96 NAT64,
 * ::a.b.c.d compatible) as that IPv4 address; other IPv6 in its full form. Null when it is no IP address.
 */
export function normalizeAddress(address: string): string | null {
  const unzoned = address.split('%')[0];
  const version = isIP(unzoned);
  if (version === 4) return unzoned;
  if (version !== 6) return null;
  const groups = ipv6Groups(unzoned);
  const embeddedV4 = `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  const zeroUpTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroUpTo(5) && groups[5] === 0xffff) return embeddedV4;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return embeddedV4;
  if (zeroUpTo(6) && (groups[6] !== 0 || groups[7] > 1)) return embeddedV4;
  return groups.map((group) => group.toString(16)).join(':');
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill =
    tail === undefined ? [] : new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...fill, ...tailGroups].map((group) => parseInt(group, 16));
}
