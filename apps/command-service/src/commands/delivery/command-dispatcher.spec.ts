import { jest } from '@jest/globals';
import type { ServiceClient } from '@cpc/nats';
import type { CommandServiceConfig } from '../../command-service.config.js';
import type { CommandTransitions } from '../outcomes/command-transitions.js';
import { CommandDispatcher } from './command-dispatcher.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { DispatchSignal } from './dispatch-signal.js';
import type { GatewayCallClient } from './gateway-call.client.js';

/** How wakes become claim runs; the queue is a stand-in that finds nothing due (the integration spec delivers). */
describe('CommandDispatcher wakes', () => {
  const claims: number[] = [];
  let signal: DispatchSignal;

  beforeEach(() => {
    jest.useFakeTimers();
    claims.length = 0;
    signal = new DispatchSignal();
    const queue = {
      claimDue: () => {
        claims.push(performance.now());
        return Promise.resolve([]);
      },
    } as unknown as DeliveryQueue;
    new CommandDispatcher(
      { commandDispatchIntervalMs: 60_000, commandLeaseMs: 15_000 } as CommandServiceConfig,
      queue,
      {} as CommandTransitions,
      {} as GatewayCallClient,
      {} as ServiceClient,
      signal,
    );
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  const settle = async () => {
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  };

  it('claims at once on a first wake, and takes the wakes right after it up in one run a few ms later', async () => {
    signal.notify();
    await settle();
    expect(claims).toHaveLength(1);

    for (let wake = 0; wake < 50; wake += 1) signal.notify();
    await settle();
    expect(claims).toHaveLength(1);

    await jest.advanceTimersByTimeAsync(5);
    await settle();
    expect(claims).toHaveLength(2);
    expect(claims[1] - claims[0]).toBeGreaterThanOrEqual(5);
  });

  it('claims at once again when the last run began long enough ago', async () => {
    signal.notify();
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    signal.notify();
    await settle();
    expect(claims).toHaveLength(2);
  });
});
