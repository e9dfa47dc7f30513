import { normalizeAddress, TargetGuard, TargetRefusedError } from './target-guard.js';

describe('TargetGuard', () => {
  const guard = new TargetGuard([]);

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '::127.0.0.1',
  ])('refuses %s', (address) => {
    expect(guard.refusal(address)).not.toBeNull();
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(guard.refusal(address)).toBeNull();
  });

  it('lets the allow-list name ranges that are refused otherwise', () => {
    const allowing = new TargetGuard(['127.0.0.0/8', '::1/128']);
    expect(allowing.refusal('127.0.0.1')).toBeNull();
    expect(allowing.refusal('::ffff:127.0.0.1')).toBeNull();
    expect(allowing.refusal('::1')).toBeNull();
    expect(allowing.refusal('10.0.0.1')).not.toBeNull();
  });

  it('resolves names and refuses when any address is refused', async () => {
    await expect(guard.resolve('localhost')).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(guard.resolve('[::1]')).rejects.toBeInstanceOf(TargetRefusedError);
    await expect(guard.resolve('does-not-exist.invalid')).rejects.toThrow('does not resolve');
    await expect(new TargetGuard(['127.0.0.0/8']).resolve('127.0.0.1')).resolves.toEqual({
      address: '127.0.0.1',
      family: 4,
    });
  });

  it('reads IPv4 inside IPv6', () => {
    expect(normalizeAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(normalizeAddress('0:0:0:0:0:ffff:a00:1')).toBe('10.0.0.1');
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8:0:0:0:0:0:1');
    expect(normalizeAddress('example.com')).toBeNull();
  });
});
