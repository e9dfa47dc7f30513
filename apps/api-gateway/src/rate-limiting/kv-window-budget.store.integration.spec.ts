import { createHash } from 'node:crypto';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { API_RATE_LIMITS_BUCKET } from '@cpc/contracts';
import { type NatsTestServer, startNatsTestServer } from '@cpc/testing';
import { testConnection } from '../testing/api-gateway-test-bed.js';
import { KvWindowBudgetStore } from './kv-window-budget.store.js';

/** The shared windows in a real nats-server's KV bucket. */
describe('KvWindowBudgetStore', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let store: KvWindowBudgetStore;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await testConnection(nats.url);
    store = new KvWindowBudgetStore(connection, 1_000);
  });

  afterAll(async () => {
    await connection?.close();
    await nats?.stop();
  });

  it('creates a window once, and updates it only from the revision it was read at', async () => {
    expect(await store.read('tenant:subject')).toBeUndefined();
    expect(await store.write('tenant:subject', { startedAt: 10, leased: 1 }, undefined)).toBe(true);
    expect(await store.write('tenant:subject', { startedAt: 20, leased: 1 }, undefined)).toBe(false);

    const read = await store.read('tenant:subject');
    expect(read?.window).toEqual({ startedAt: 10, leased: 1 });
    expect(await store.write('tenant:subject', { startedAt: 10, leased: 3 }, read?.revision)).toBe(true);
    expect(await store.write('tenant:subject', { startedAt: 10, leased: 9 }, read?.revision)).toBe(false);
    expect((await store.read('tenant:subject'))?.window).toEqual({ startedAt: 10, leased: 3 });
  });

  it('keeps the bucket in memory, one revision per key, and drops keys after the longest window', async () => {
    const info = await (await jetstreamManager(connection)).streams.info(`KV_${API_RATE_LIMITS_BUCKET}`);
    expect(info.config).toMatchObject({
      storage: StorageType.Memory,
      max_msgs_per_subject: 1,
      max_age: 3600 * 1e9,
    });
  });

  it('reads a value that is not a window as one that ended long ago, so the next lease writes over it', async () => {
    await store.write('tenant:garbled', { startedAt: 1, leased: 1 }, undefined);
    // The key is a hash of the subject's key: KV keys cannot hold the colon.
    const key = createHash('sha256').update('tenant:garbled').digest('base64url');
    const bucket = await new Kvm(connection).open(API_RATE_LIMITS_BUCKET);
    await bucket.put(key, 'not json');

    const read = await store.read('tenant:garbled');
    expect(read?.window).toEqual({ startedAt: 0, leased: 0 });
    expect(await store.write('tenant:garbled', { startedAt: 5, leased: 1 }, read?.revision)).toBe(true);
    expect((await bucket.get(key))?.json()).toEqual({ startedAt: 5, leased: 1 });
  });

  it('creates the bucket again after it was lost (a NATS restart forgets streams kept in memory)', async () => {
    await store.write('tenant:lost', { startedAt: 1, leased: 1 }, undefined);
    await (await jetstreamManager(connection)).streams.delete(`KV_${API_RATE_LIMITS_BUCKET}`);

    await expect(store.read('tenant:lost')).rejects.toThrow();
    expect(await store.read('tenant:lost')).toBeUndefined();
    expect(await store.write('tenant:lost', { startedAt: 2, leased: 1 }, undefined)).toBe(true);
  });
});
