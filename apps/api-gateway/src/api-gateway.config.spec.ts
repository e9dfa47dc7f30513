import { ConfigError } from '@cpc/config';
import { loadApiGatewayConfig } from './api-gateway.config.js';

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
