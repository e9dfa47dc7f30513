import { generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Principal } from '@cpc/contracts';
import type { ServiceClient } from '@cpc/nats';
import { SigningKeyCache } from './signing-key-cache.js';
import { VerifiedTokenCache } from './verified-token-cache.js';

const pemOf = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }) as string;

describe('SigningKeyCache', () => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let fetches: number;
  let nowMs: number;
  /** auth-service's answer: its one key k1, as a fresh PEM string every time. */
  const serviceClient = {
    request: () => {
      fetches += 1;
      return Promise.resolve({ keys: [{ kid: 'k1', alg: 'RS256', publicKeyPem: `${pemOf(publicKey)}` }] });
    },
  } as unknown as ServiceClient;
  const cacheWithInterval = (unknownKidRefetchIntervalMs: number) =>
    new SigningKeyCache(serviceClient, {} as NatsConnection, {
      unknownKidRefetchIntervalMs,
      now: () => nowMs,
    });

  beforeEach(() => {
    fetches = 0;
    nowMs = 1_000_000;
  });

  it('parses each public key once and hands out the parsed key on every request', async () => {
    const cache = cacheWithInterval(5000);

    const first = await cache.publicKeyFor('k1');
    const second = await cache.publicKeyFor('k1');

    expect(first).toBeInstanceOf(KeyObject);
    expect(second).toBe(first);
    expect(first?.equals(publicKey)).toBe(true);
    expect(fetches).toBe(1);
  });

  it('refetches for unknown kids at most once per interval, and keeps every verified token cached', async () => {
    const keys = cacheWithInterval(5000);
    const tokens = new VerifiedTokenCache(keys, 10, () => nowMs);
    const principal: Principal = {
      tenantUuid: 't',
      tenantSlug: 'acme',
      subject: 'u',
      subjectType: 'user',
      scopes: ['asset'],
    };
    tokens.remember('a.b.c', principal, 'k1', (await keys.publicKeyFor('k1'))!, nowMs / 1000 + 3600);
    expect(fetches).toBe(1);

    const randomKids = () => Promise.all(Array.from({ length: 200 }, () => keys.publicKeyFor(randomUUID())));
    expect((await randomKids()).every((key) => key === undefined)).toBe(true);
    expect(fetches).toBe(2);
    nowMs += 4999;
    await randomKids();
    expect(fetches).toBe(2);
    nowMs += 1;
    await randomKids();
    expect(fetches).toBe(3);

    expect(await tokens.principalFor('a.b.c')).toEqual(principal);
    expect(tokens.size).toBe(1);
  });
});
