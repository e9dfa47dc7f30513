import { ConfigError } from '@cpc/config';
import { API_GATEWAY_TUNING, loadApiGatewayConfig } from './api-gateway.config.js';

describe('api-gateway TRUSTED_PROXIES', () => {
  it('trusts no proxy when unset, so forwarded headers are ignored', () => {
    expect(loadApiGatewayConfig({}).trustedProxies).toEqual([]);
  });

  it('reads a list of addresses and CIDRs', () => {
    expect(
      loadApiGatewayConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, 127.0.0.1,fd00::/8 ' }).trustedProxies,
    ).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
  });

  it.each(['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', '::1/129', '*'])(
    'stops at start-up on an entry that is not an address or CIDR: %s',
    (entry) => {
      expect(() => loadApiGatewayConfig({ TRUSTED_PROXIES: `127.0.0.1,${entry}` })).toThrow(ConfigError);
    },
  );
});

describe('api-gateway tuning', () => {
  it('is the same for every instance, whatever the environment, and cannot be changed at run time', () => {
    const config = loadApiGatewayConfig({});
    expect(config.tuning).toBe(API_GATEWAY_TUNING);
    expect(Object.isFrozen(config.tuning)).toBe(true);
  });

  it('keeps the values the gateway was measured and tested with', () => {
    expect(API_GATEWAY_TUNING).toEqual({
      signingKeysMaxAgeMs: 300_000,
      verifiedTokenCacheSize: 10_000,
      revocationPollOverlapMs: 60_000,
      revocationStaleRetryMs: 1_000,
      revocationFirstSyncWaitMs: 10_000,
      revocationFirstSyncRetryMs: 250,
      lingerIdleMs: 2_000,
      lingerTotalMs: 5_000,
      lingerMaxBytes: 8_388_608,
      rateLimitLeaseShare: 8,
      rateLimitLeaseAttempts: 10,
      rateLimitStoreTimeoutMs: 1_000,
      rateLimitStoreRetryMs: 5_000,
    });
  });
});
