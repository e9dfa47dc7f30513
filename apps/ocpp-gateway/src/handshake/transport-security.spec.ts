import { commonNameOf } from './transport-security.js';

describe('commonNameOf', () => {
  it.each([
    ['CN=CP-1,O=Acme', 'CP-1'],
    ['O=Acme,CN=CP-1', 'CP-1'],
    ['/O=Acme/CN=CP-1', 'CP-1'],
    ['cn=CP-1', 'CP-1'],
    ['CN=CP\\,1,O=Acme', 'CP,1'],
    ['O=Acme', undefined],
  ])('%s → %s', (dn, cn) => {
    expect(commonNameOf(dn)).toBe(cn);
  });
});
