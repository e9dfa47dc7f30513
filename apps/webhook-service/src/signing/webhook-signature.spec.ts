import { Webhook } from 'standardwebhooks';
import { SecretBox } from './secret-box.js';
import { SigningKeys } from './signing-keys.js';
import { newSigningSecret, SECRET_PREFIX, signingKeyOf, signWebhook } from './webhook-signature.js';

describe('webhook signatures (checked with the standardwebhooks package)', () => {
  const body = JSON.stringify({ type: 'ping', timestamp: '2026-01-01T00:00:00Z', data: { a: 1 } });
  const now = () => Math.floor(Date.now() / 1000);

  it('signs id.timestamp.body so that an independent implementation verifies it', () => {
    const secret = newSigningSecret();
    expect(secret.startsWith(SECRET_PREFIX)).toBe(true);
    expect(Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')).toHaveLength(32);
    const headers = signWebhook([signingKeyOf(secret)], 'msg_1', now(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('carries one signature per secret during a rotation, each verifying on its own', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const headers = signWebhook([signingKeyOf(current), signingKeyOf(previous)], 'msg_2', now(), body);
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

/** The box, counting how often it opens a secret. */
function countingOpens(box: SecretBox): SecretBox & { opened: number } {
  const counting = Object.assign(Object.create(box) as SecretBox, {
    opened: 0,
    open: (ciphertext: string, subscriptionUuid: string) => {
      counting.opened += 1;
      return box.open(ciphertext, subscriptionUuid);
    },
  });
  return counting;
}

describe('SigningKeys', () => {
  const box = new SecretBox('x'.repeat(32));
  const body = '{"type":"ping"}';

  it("signs with the key of a subscription's secret, opened once, and never for another subscription", () => {
    const secret = newSigningSecret();
    const sealed = box.seal(secret, 'a');
    const counting = countingOpens(box);
    const keys = new SigningKeys(counting, 2);
    const headers = signWebhook([keys.keyOf(sealed, 'a')], 'msg_3', Math.floor(Date.now() / 1000), body);
    expect(() => new Webhook(secret).verify(body, { ...headers })).not.toThrow();
    keys.keyOf(sealed, 'a');
    expect(counting.opened).toBe(1);
    // The same ciphertext on another subscription must open under that binding, and does not.
    expect(() => keys.keyOf(sealed, 'b')).toThrow();
  });

  it('opens them again once more than it keeps were asked for', () => {
    const sealed = ['a', 'b', 'c'].map((uuid) => [box.seal(newSigningSecret(), uuid), uuid] as const);
    const counting = countingOpens(box);
    const keys = new SigningKeys(counting, 2);
    for (const [ciphertext, uuid] of sealed) keys.keyOf(ciphertext, uuid);
    keys.keyOf(...sealed[0]);
    expect(counting.opened).toBe(4);
  });
});
