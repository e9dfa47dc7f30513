import { TrustedProxies } from './trusted-proxies.js';

describe('TrustedProxies', () => {
  it('matches addresses and CIDR ranges, IPv4 also as IPv4-mapped IPv6', () => {
    const proxies = TrustedProxies.parse('10.0.0.0/8, 127.0.0.2 ,fd00::/8');
    expect(proxies.includes('10.1.2.3')).toBe(true);
    expect(proxies.includes('::ffff:10.1.2.3')).toBe(true);
    expect(proxies.includes('127.0.0.2')).toBe(true);
    expect(proxies.includes('127.0.0.3')).toBe(false);
    expect(proxies.includes('fd12::1')).toBe(true);
    expect(proxies.includes('11.0.0.1')).toBe(false);
    expect(proxies.includes(undefined)).toBe(false);
    expect(proxies.includes('not-an-address')).toBe(false);
  });

  it('trusts nobody when unset', () => {
    expect(TrustedProxies.parse(undefined).includes('127.0.0.1')).toBe(false);
    expect(TrustedProxies.none.includes('10.0.0.1')).toBe(false);
  });

  it('reports entries that are neither addresses nor ranges', () => {
    const problems: string[] = [];
    TrustedProxies.parse('10.0.0.0/8,10.0.0.0/33,example.com,1.2.3.4/8/1,::1/129,10.0.0.0/x', problems);
    expect(problems).toHaveLength(5);
  });

  it('takes the client address from X-Forwarded-For only through trusted hops, from the end', () => {
    const proxies = TrustedProxies.parse('10.0.0.0/8');
    // From an untrusted peer the header is ignored.
    expect(proxies.clientAddress('203.0.113.9', '198.51.100.1')).toBe('203.0.113.9');
    // A trusted ingress appended the client's address.
    expect(proxies.clientAddress('10.0.0.5', '198.51.100.1')).toBe('198.51.100.1');
    // What the client wrote itself in front is never reached.
    expect(proxies.clientAddress('10.0.0.5', '1.1.1.1, 198.51.100.1')).toBe('198.51.100.1');
    // Several trusted hops are walked past.
    expect(proxies.clientAddress('10.0.0.5', '198.51.100.1, 10.0.0.7')).toBe('198.51.100.1');
    expect(proxies.clientAddress('10.0.0.5', 'garbage')).toBe('10.0.0.5');
    expect(proxies.clientAddress('10.0.0.5', undefined)).toBe('10.0.0.5');
  });
});
