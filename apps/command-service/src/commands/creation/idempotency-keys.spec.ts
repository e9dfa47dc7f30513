import { requestFingerprint } from './idempotency-keys.js';

describe('requestFingerprint', () => {
  it('is the same for the same body in another key order, at every depth', () => {
    expect(requestFingerprint({ a: 1, b: { c: [1, { d: 2, e: 3 }] } })).toBe(
      requestFingerprint({ b: { c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it('differs for other values, array orders and types', () => {
    const base = requestFingerprint({ a: [1, 2] });
    expect(requestFingerprint({ a: [2, 1] })).not.toBe(base);
    expect(requestFingerprint({ a: ['1', 2] })).not.toBe(base);
    expect(requestFingerprint({ a: [1, 2], b: null })).not.toBe(base);
  });

  it('takes any JSON value, and no body at all', () => {
    for (const body of [undefined, null, 'text', 7, [1]]) {
      expect(requestFingerprint(body)).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(requestFingerprint(undefined)).toBe(requestFingerprint(null));
  });
});
