import { Webhook } from 'standardwebhooks';
import { SecretBox } from './secret-box.js';
import { newSigningSecret, SECRET_PREFIX, signWebhook } from './webhook-signature.js';

describe('webhook signatures (checked with the standardwebhooks package)', () => {
  const body = JSON.stringify({ type: 'ping', timestamp: '2026-01-01T00:00:00Z', data: { a: 1 } });
  const now = () => Math.floor(Date.now() / 1000);

  it('signs id.timestamp.body so that an independent implementation verifies it', () => {
    const secret = newSigningSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')).toHaveLength(32);
    const headers = signWebhook([secret], 'msg_1', now(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('carries one signature per secret during a rotation, each verifying on its own', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = signWebhook([current, previous], 'msg_2', now(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, { ...headers })).toThrow();
  });
});

describe('SecretBox', () => {
  it('opens what it sealed for the same subscription only, and never holds the secret in clear', () => {
    const box = new SecretBox('x'.repeat(32));
    const sealed = box.seal('whsec_abc', 'a');
    expect(sealed).not.toContain('abc');
    expect(box.open(sealed, 'a')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'b')).toThrow();
    expect(() => new SecretBox('y'.repeat(32)).open(sealed, 'a')).toThrow();
  });
});
