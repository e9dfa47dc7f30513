import { parseDistinguishedName, subjectOfPeerCertificate } from './certificate-subject.js';

describe('parseDistinguishedName', () => {
  it.each([
    ['CN=CP-1,O=acme', 'CP-1', 'acme'],
    ['O=acme,CN=CP-1', 'CP-1', 'acme'],
    ['O=acme, CN=CP-1 ', 'CP-1', 'acme'],
    ['cn=CP-1;o=acme', 'CP-1', 'acme'],
    ['CN=CP-1+O=acme,C=DE', 'CP-1', 'acme'],
    ['2.5.4.3=CP-1,2.5.4.10=acme', 'CP-1', 'acme'],
    ['commonName=CP-1,organizationName=acme', 'CP-1', 'acme'],
    ['CN=CP\\,1,O=Acme\\, Inc.', 'CP,1', 'Acme, Inc.'],
    ['CN=CP\\2C1,O=acme', 'CP,1', 'acme'],
    ['CN=M\\C3\\BCller,O=acme', 'Müller', 'acme'],
    ['CN="CP,1",O=acme', 'CP,1', 'acme'],
    ['/O=acme/CN=CP-1', 'CP-1', 'acme'],
    ['/C=DE/O=acme/OU=stations/CN=CP-1', 'CP-1', 'acme'],
    ['/O=acme\\/evil/CN=CP-1', 'CP-1', 'acme/evil'],
    ['/O=M\\xC3\\xBCller/CN=CP-1', 'CP-1', 'Müller'],
  ])('%s → CN %s, O %s', (dn, commonName, organization) => {
    expect(parseDistinguishedName(dn)).toEqual({ commonName, organization });
  });

  it('does not let an escaped separator smuggle in an attribute', () => {
    expect(parseDistinguishedName('CN=CP-1\\,O=acme,O=evil')).toEqual({
      commonName: 'CP-1,O=acme',
      organization: 'evil',
    });
    expect(parseDistinguishedName('CN=CP-1\\/O=acme')).toEqual({
      commonName: 'CP-1/O=acme',
      organization: undefined,
    });
  });

  it('names nobody when CN or O appears twice', () => {
    expect(parseDistinguishedName('CN=CP-1,O=acme,O=other')).toEqual({
      commonName: 'CP-1',
      organization: undefined,
    });
    expect(parseDistinguishedName('/CN=CP-1/CN=CP-2/O=acme')).toEqual({
      commonName: undefined,
      organization: 'acme',
    });
  });

  it.each([[''], ['CP-1'], ['CN=CP-1,'], ['CN=CP-1\\'], ['CN="CP-1'], ['=x'], ['/CN'], ['CN=a,b']])(
    'refuses the malformed %j',
    (dn) => {
      expect(parseDistinguishedName(dn)).toBeUndefined();
    },
  );
});

describe('subjectOfPeerCertificate', () => {
  it('reads CN and O, and names nobody for a repeated field', () => {
    expect(subjectOfPeerCertificate({ CN: 'CP-1', O: 'acme', C: 'DE' })).toEqual({
      commonName: 'CP-1',
      organization: 'acme',
    });
    expect(subjectOfPeerCertificate({ CN: 'CP-1', O: ['acme', 'other'] })).toEqual({
      commonName: 'CP-1',
      organization: undefined,
    });
  });
});
