import { parseOcppConnectionPath } from './ocpp-connection-path.js';

describe('parseOcppConnectionPath', () => {
  it('reads tenant slug and identity', () => {
    expect(parseOcppConnectionPath('/ocpp/acme/CP-001')).toEqual({ tenantSlug: 'acme', identity: 'CP-001' });
    expect(parseOcppConnectionPath('/ocpp/acme/CP%2A1?x=1')).toEqual({
      tenantSlug: 'acme',
      identity: 'CP*1',
    });
  });

  it.each([
    undefined,
    '/',
    '/ocpp/acme',
    '/ocpp/acme/',
    '/ocpp//CP1',
    '/other/acme/CP1',
    '/ocpp/acme/CP1/extra',
    '/ocpp/acme/%E0%A4%A',
    '/ocpp/acme/a%2Fb',
    '/ocpp/acme/a%3Ab',
    `/ocpp/acme/${'x'.repeat(49)}`,
  ])('refuses %s', (url) => {
    expect(parseOcppConnectionPath(url)).toBeUndefined();
  });
});
