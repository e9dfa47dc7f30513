import { BlockList, isIP } from 'node:net';

/**
 * The proxies (the ingress) whose forwarding headers a service believes: TRUSTED_PROXIES, a comma-separated list of
 * addresses and CIDR ranges (`10.0.0.0/8, 127.0.0.2, fd00::/8`), the format api-gateway hands to Fastify's
 * `trustProxy`. Anyone else's X-Forwarded-* and client-certificate headers are ignored.
 */
export class TrustedProxies {
  private constructor(
    private readonly list: BlockList,
    /** The entries as configured, for logs. */
    readonly entries: readonly string[],
  ) {}

  /** Nobody is trusted: every header comes from the TCP peer itself. */
  static readonly none = new TrustedProxies(new BlockList(), []);

  /** Parses the setting; every entry that is neither an address nor a CIDR range is reported in `problems`. */
  static parse(value: string | undefined, problems: string[] = [], name = 'TRUSTED_PROXIES'): TrustedProxies {
    const entries = (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const list = new BlockList();
    for (const entry of entries) {
      const [address, prefix, ...rest] = entry.split('/');
      const family = isIP(address);
      const maxPrefix = family === 4 ? 32 : 128;
      const prefixLength = prefix === undefined ? maxPrefix : Number(prefix);
      if (
        family === 0 ||
        rest.length > 0 ||
        (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
        prefixLength > maxPrefix
      ) {
        problems.push(`${name}: "${entry}" is neither an IP address nor a CIDR range`);
        continue;
      }
      list.addSubnet(address, prefixLength, family === 4 ? 'ipv4' : 'ipv6');
    }
    return new TrustedProxies(list, entries);
  }

  /** Whether `address` (IPv4, IPv6 or IPv4-mapped IPv6, as a socket reports it) is one of the trusted proxies. */
  includes(address: string | undefined): boolean {
    if (!address || this.entries.length === 0) return false;
    const family = isIP(address);
    if (family === 0) return false;
    return this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The client's address: the TCP peer unless it is a trusted proxy, in which case X-Forwarded-For is walked from
   * its end (the entry the nearest proxy appended) past every trusted hop. Entries a client wrote itself at the
   * front are never reached while an untrusted hop stands between, so they cannot be spoofed.
   */
  clientAddress(peerAddress: string | undefined, forwardedFor: string | undefined): string | undefined {
    let client = peerAddress;
    if (!this.includes(client) || !forwardedFor) return client;
    const hops = forwardedFor
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '');
    while (this.includes(client) && hops.length > 0) {
      const next = hops.pop() as string;
      if (isIP(next) === 0) return client;
      client = next;
    }
    return client;
  }
}
