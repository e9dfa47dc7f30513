import 'reflect-metadata';
import type { DomainError } from '@cpc/errors';
import { basicCredentials, TokenRequestPipe } from './token-request.pipe.js';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('basicCredentials', () => {
  it('reads client_id and client_secret, each form-decoded (RFC 6749 §2.3.1)', () => {
    expect(basicCredentials(basic('pk_1:sk_a%3Ab+c'))).toEqual({
      clientId: 'pk_1',
      clientSecret: 'sk_a:b c',
    });
    expect(basicCredentials(`basic   ${Buffer.from('a:').toString('base64')}`)).toEqual({
      clientId: 'a',
      clientSecret: '',
    });
  });

  it('is null without Basic credentials and malformed when they do not decode', () => {
    expect(basicCredentials(undefined)).toBeNull();
    expect(basicCredentials('Bearer abc')).toBeNull();
    expect(basicCredentials('Basic')).toBe('malformed');
    expect(basicCredentials(basic('no-colon'))).toBe('malformed');
    expect(basicCredentials(basic('pk:%E0%A4%A'))).toBe('malformed');
  });
});

describe('TokenRequestPipe', () => {
  const pipe = new TokenRequestPipe();
  const refusal = async (body: unknown, authorization?: string) => {
    try {
      await pipe.transform({ body, authorization });
    } catch (error) {
      return (error as DomainError).issues;
    }
    throw new Error('not refused');
  };

  it('drops unknown fields instead of refusing them (RFC 6749 §3.2)', async () => {
    const request = await pipe.transform({
      body: { username: 'ops@acme.test', password: 'secret-1', tenant: 'acme', nonce: 'x', admin: true },
      authorization: undefined,
    });
    expect(request).toEqual({ username: 'ops@acme.test', password: 'secret-1', tenant: 'acme' });
  });

  it('takes HTTP Basic credentials as client_id and client_secret of client_credentials only', async () => {
    const credentials = basic('pk_0123456789:sk_secret');
    expect(
      await pipe.transform({ body: { grant_type: 'client_credentials' }, authorization: credentials }),
    ).toEqual({
      grant_type: 'client_credentials',
      client_id: 'pk_0123456789',
      client_secret: 'sk_secret',
    });
    // A password grant's client authentication is not used: the platform has public clients only.
    const password = await pipe.transform({
      body: { username: 'ops@acme.test', password: 'secret-1', tenant: 'acme' },
      authorization: credentials,
    });
    expect(password.client_id).toBeUndefined();
  });

  it('refuses client credentials in header and body at once, and a broken Basic header', async () => {
    const both = { grant_type: 'client_credentials', client_id: 'pk_0123456789', client_secret: 'sk_secret' };
    expect(await refusal(both, basic('pk_0123456789:sk_secret'))).toEqual([
      expect.objectContaining({ parameter: 'client_id', errorKey: 'invalid_value' }),
    ]);
    expect(await refusal({ grant_type: 'client_credentials' }, 'Basic !!')).toEqual([
      expect.objectContaining({ parameter: 'Authorization', errorKey: 'invalid_format' }),
    ]);
  });

  it('needs no tenant with client_credentials, but checks one that is given', async () => {
    const request = {
      grant_type: 'client_credentials',
      client_id: 'pk_0123456789',
      client_secret: 'sk_secret',
    };
    await expect(pipe.transform({ body: request, authorization: undefined })).resolves.toBeDefined();
    expect(await refusal({ ...request, tenant: 'ab' })).toEqual([
      expect.objectContaining({ parameter: 'tenant', errorKey: 'invalid_length' }),
    ]);
  });

  it('answers a malformed scope with invalid_scope and a malformed uuid with invalid_uuid', async () => {
    const login = { username: 'ops@acme.test', password: 'secret-1', tenant: 'acme' };
    expect(await refusal({ ...login, scope: 'asset Control' })).toEqual([
      expect.objectContaining({ parameter: 'scope', errorKey: 'invalid_scope' }),
    ]);
    for (const uuid of ['abc', 'x'.repeat(36)]) {
      expect(await refusal({ ...login, uuid })).toEqual([
        expect.objectContaining({ parameter: 'uuid', errorKey: 'invalid_uuid' }),
      ]);
    }
    expect(await refusal({ ...login, uuid: 42 })).toEqual([
      expect.objectContaining({ parameter: 'uuid', errorKey: 'invalid_type' }),
    ]);
  });
});
