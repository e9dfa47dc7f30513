import type { NatsConnection } from '@nats-io/transport-node';
import { coalesceWritesPerTick } from './tick-coalesced-writes.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesceWritesPerTick', () => {
  it('writes what several messages of one turn published once, after the turn', async () => {
    let flushes = 0;
    const flushPending = () => flushes++;
    const connection = { protocol: { flushPending } } as unknown as NatsConnection;
    coalesceWritesPerTick(connection);
    const protocol = (connection as unknown as { protocol: { flushPending(): void } }).protocol;

    protocol.flushPending();
    protocol.flushPending();
    await Promise.resolve();
    protocol.flushPending();
    expect(flushes).toBe(0);

    await nextTurn();
    expect(flushes).toBe(1);

    protocol.flushPending();
    await nextTurn();
    expect(flushes).toBe(2);
  });

  it('refuses a connection whose writes it cannot reach, rather than silently changing nothing', () => {
    expect(() => coalesceWritesPerTick({} as NatsConnection)).toThrow(/cannot coalesce/);
  });
});
