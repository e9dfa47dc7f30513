import { clientAddressKey } from './token-limits.js';

describe('clientAddressKey', () => {
  it('counts an IPv4 address as itself, also when IPv4-mapped', () => {
    expect(clientAddressKey('127.0.0.2')).toBe('127.0.0.2');
    expect(clientAddressKey('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(clientAddressKey('::FFFF:10.1.2.3')).toBe('10.1.2.3');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = '2001:0db8:0000:0001::/64';
    expect(clientAddressKey('2001:db8:0:1::1')).toBe(key);
    expect(clientAddressKey('2001:DB8:0:1:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientAddressKey('2001:db8::1:0:0:0:5')).toBe(key);
    expect(clientAddressKey('2001:db8:0:1::1%eth0')).toBe(key);
    expect(clientAddressKey('2001:db8:0:2::1')).not.toBe(key);
    expect(clientAddressKey('::1')).toBe('0000:0000:0000:0000::/64');
  });

  it('keys anything else by a digest, never by the raw text', () => {
    const key = clientAddressKey('not an address');
    expect(key).toMatch(/^other:[0-9a-f]{40}$/);
    expect(key.length).toBeLessThanOrEqual(64);
  });
});
