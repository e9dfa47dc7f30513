import { jest } from '@jest/globals';
import { hostname } from 'node:os';
import type { ServiceClient } from '@cpc/nats';
import { COMMAND_SERVICE_TUNING, type CommandServiceConfig } from '../../command-service.config.js';
import type { CommandTransitions } from '../outcomes/command-transitions.js';
import { CommandDispatcher } from './command-dispatcher.js';
import type { ClaimedCommand } from '../command-row.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { DispatchSignal } from './dispatch-signal.js';
import type { GatewayCallClient } from './gateway-call.client.js';

/** A dispatcher on stand-ins (the integration spec delivers for real), its timers fake. */
function dispatcherOn(
  signal: DispatchSignal,
  queue: Partial<DeliveryQueue>,
  gateway: Partial<GatewayCallClient> = {},
) {
  return new CommandDispatcher(
    {
      commandDispatchIntervalMs: 60_000,
      commandLeaseMs: 15_000,
      tuning: COMMAND_SERVICE_TUNING,
    } as CommandServiceConfig,
    queue as DeliveryQueue,
    {} as CommandTransitions,
    gateway as GatewayCallClient,
    {} as ServiceClient,
    signal,
  );
}

/** Lets the promises pending now run to their end. */
const settle = async () => {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
};

/** How wakes become claim runs; the queue is a stand-in that finds nothing due. */
describe('CommandDispatcher wakes', () => {
  const claims: number[] = [];
  let signal: DispatchSignal;

  beforeEach(() => {
    jest.useFakeTimers();
    claims.length = 0;
    signal = new DispatchSignal();
    dispatcherOn(signal, {
      claimDue: () => {
        claims.push(performance.now());
        return Promise.resolve([]);
      },
    });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

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

/** The leases the dispatcher offers creations, and what it does after delivering a command created leased to it. */
describe('CommandDispatcher and commands created leased to it', () => {
  const claims: number[] = [];
  let signal: DispatchSignal;
  let dispatcher: CommandDispatcher;
  /** Answers the calls the gateway was asked, in order. */
  const pendingCalls: (() => void)[] = [];

  const command = (index: number) =>
    ({
      uuid: `command-${index}`,
      controller_uuid: `charge-point-${index}`,
      target_type: 'controller',
      status: 'pending',
      target_deleted_at: null,
      created_at: new Date(),
    }) as unknown as ClaimedCommand;

  beforeEach(() => {
    jest.useFakeTimers();
    claims.length = 0;
    pendingCalls.length = 0;
    signal = new DispatchSignal();
    dispatcher = dispatcherOn(
      signal,
      {
        claimDue: () => {
          claims.push(performance.now());
          return Promise.resolve([]);
        },
        awaitConnection: () => Promise.resolve(),
        releaseAll: () => Promise.resolve(),
      },
      // Offline once told to answer: the command waits for its charge point.
      { call: () => new Promise((resolve) => pendingCalls.push(() => resolve({ kind: 'offline' }))) },
    );
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('offers leases for as many commands as it has room for, and none once full or stopping', async () => {
    expect(signal.leasesForCreation()).toEqual({
      owner: expect.stringMatching(new RegExp(`^${hostname()}/`)),
      leaseMs: 15_000,
      limit: 500,
    });
    for (let index = 0; index < 499; index += 1) signal.deliverCreated(command(index));
    await settle();
    expect(pendingCalls).toHaveLength(499);
    expect(signal.leasesForCreation()).toMatchObject({ limit: 1 });
    signal.deliverCreated(command(499));
    expect(signal.leasesForCreation()).toBeUndefined();

    await dispatcher.beforeApplicationShutdown();
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    expect(signal.leasesForCreation()).toBeUndefined();
    signal.deliverCreated(command(500));
    await settle();
    expect(pendingCalls).toHaveLength(0);
  });

  it('after such a delivery, claims only if a wake came while it ran', async () => {
    signal.deliverCreated(command(1));
    await settle();
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(0);

    signal.deliverCreated(command(2));
    await settle();
    signal.notify();
    await settle();
    expect(claims).toHaveLength(1);
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(2);
  });
});
