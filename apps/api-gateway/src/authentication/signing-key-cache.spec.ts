import { generateKeyPairSync, KeyObject } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ServiceClient } from '@cpc/nats';
import { SigningKeyCache } from './signing-key-cache.js';

describe('SigningKeyCache', () => {
  it('parses each public key once and hands out the parsed key on every request', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    let fetches = 0;
    const serviceClient = {
      request: () => {
        fetches += 1;
        return Promise.resolve({
          keys: [{ kid: 'k1', publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) }],
        });
      },
    } as unknown as ServiceClient;
    const cache = new SigningKeyCache(serviceClient, {} as NatsConnection);

    const first = await cache.publicKeyFor('k1');
    const second = await cache.publicKeyFor('k1');

    expect(first).toBeInstanceOf(KeyObject);
    expect(second).toBe(first);
    expect(first?.equals(publicKey)).toBe(true);
    expect(fetches).toBe(1);
  });
});
