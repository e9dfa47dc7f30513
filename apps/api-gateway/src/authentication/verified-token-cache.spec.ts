import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Principal } from '@cpc/contracts';
import { type CurrentSigningKeys, VerifiedTokenCache } from './verified-token-cache.js';

const principal: Principal = {
  tenantUuid: 't',
  tenantSlug: 'acme',
  subject: 'u',
  subjectType: 'user',
  scopes: ['asset'],
};
const newKey = () => generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;

describe('VerifiedTokenCache', () => {
  let current: Map<string, KeyObject>;
  let nowMs: number;
  const keys: CurrentSigningKeys = { publicKeyFor: (kid) => Promise.resolve(current.get(kid)) };
  const cache = (size = 10) => new VerifiedTokenCache(keys, size, () => nowMs);
  const exp = 1_000_000;

  beforeEach(() => {
    current = new Map([['k1', newKey()]]);
    nowMs = (exp - 60) * 1000;
  });

  it('answers a remembered token with its principal, which nobody can change', async () => {
    const tokens = cache();
    tokens.remember('a.b.c', principal, 'k1', current.get('k1')!, exp);
    const found = await tokens.principalFor('a.b.c');
    expect(found).toEqual(principal);
    expect(Object.isFrozen(found) && Object.isFrozen(found?.scopes)).toBe(true);
    expect(await tokens.principalFor('x.y.z')).toBeUndefined();
  });

  it('drops a token from its exp on, as jsonwebtoken counts expiry', async () => {
    const tokens = cache();
    tokens.remember('a.b.c', principal, 'k1', current.get('k1')!, exp);
    nowMs = exp * 1000 - 1;
    expect(await tokens.principalFor('a.b.c')).toEqual(principal);
    nowMs = exp * 1000;
    expect(await tokens.principalFor('a.b.c')).toBeUndefined();
    expect(tokens.size).toBe(0);
  });

  it('drops a token once its key is revoked or its kid stands for another key', async () => {
    const tokens = cache();
    tokens.remember('revoked', principal, 'k1', current.get('k1')!, exp);
    tokens.remember('replaced', principal, 'k1', current.get('k1')!, exp);
    current.delete('k1');
    expect(await tokens.principalFor('revoked')).toBeUndefined();
    current.set('k1', newKey());
    expect(await tokens.principalFor('replaced')).toBeUndefined();
    expect(tokens.size).toBe(0);
  });

  it('keeps no token without a numeric exp, and no more tokens than its size', async () => {
    const tokens = cache(2);
    tokens.remember('no-exp', principal, 'k1', current.get('k1')!, undefined);
    expect(tokens.size).toBe(0);
    for (const token of ['first', 'second', 'third']) {
      tokens.remember(token, principal, 'k1', current.get('k1')!, exp);
    }
    expect(tokens.size).toBe(2);
    expect(await tokens.principalFor('first')).toBeUndefined();
    expect(await tokens.principalFor('third')).toEqual(principal);
  });
});
