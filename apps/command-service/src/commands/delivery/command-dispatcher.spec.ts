import { jest } from '@jest/globals';
import { hostname } from 'node:os';
import { currentRequestDeadline, currentRequestId, runWithRequestId } from '@cpc/logging';
import type { ServiceClient } from '@cpc/nats';
import { COMMAND_SERVICE_TUNING, type CommandServiceConfig } from '../../command-service.config.js';
import type { CommandTransitions } from '../outcomes/command-transitions.js';
import { CommandDispatcher } from './command-dispatcher.js';
import type { ClaimedCommand } from '../command-row.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { DispatchSignal } from './dispatch-signal.js';
import type { GatewayCallClient, GatewayCallResult } from './gateway-call.client.js';

/** A dispatcher on stand-ins (the integration spec delivers for real), its timers fake. */
function dispatcherOn(
  signal: DispatchSignal,
  queue: Partial<DeliveryQueue>,
  gateway: Partial<GatewayCallClient> = {},
  transitions: Partial<CommandTransitions> = {},
) {
  return new CommandDispatcher(
    {
      commandDispatchIntervalMs: 60_000,
      commandLeaseMs: 15_000,
      commandOfflineRecheckMs: 15_000,
      ocppCallTimeoutMs: 30_000,
      tuning: COMMAND_SERVICE_TUNING,
    } as CommandServiceConfig,
    queue as DeliveryQueue,
    transitions as CommandTransitions,
    gateway as GatewayCallClient,
    {} as ServiceClient,
    signal,
  );
}

/** Lets the promises pending now run to their end. */
const settle = async () => {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
};

/** Lets the promises pending now run to their end, through an attempt's longer chains. */
const drain = async () => {
  for (let round = 0; round < 5; round += 1) await settle();
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

  it('claims outside the request whose creation woke it: not bound by its id or deadline', async () => {
    const seen: unknown[] = [];
    const own = new DispatchSignal();
    dispatcherOn(own, {
      claimDue: () => {
        seen.push([currentRequestId(), currentRequestDeadline()]);
        return Promise.resolve([]);
      },
    });
    runWithRequestId('creating-request', () => own.notify(), 1_000);
    await settle();
    expect(seen).toEqual([[undefined, undefined]]);
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
    expect(signal.leaseTerms()).toEqual({
      owner: expect.stringMatching(new RegExp(`^${hostname()}/`)),
      leaseMs: 15_000,
      limit: 500,
    });
    for (let index = 0; index < 499; index += 1) signal.deliverLeased(command(index));
    await settle();
    expect(pendingCalls).toHaveLength(499);
    expect(signal.leaseTerms()).toMatchObject({ limit: 1 });
    signal.deliverLeased(command(499));
    expect(signal.leaseTerms()).toBeUndefined();

    await dispatcher.beforeApplicationShutdown();
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    expect(signal.leaseTerms()).toBeUndefined();
    signal.deliverLeased(command(500));
    await settle();
    expect(pendingCalls).toHaveLength(0);
  });

  it('after such a delivery, claims only if a wake came while it ran', async () => {
    signal.deliverLeased(command(1));
    await settle();
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(0);

    signal.deliverLeased(command(2));
    await settle();
    signal.notify();
    await settle();
    expect(claims).toHaveLength(1);
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(2);
  });

  it('claims for a command created behind a lane it delivers only once that attempt is over', async () => {
    signal.deliverLeased(command(1));
    await settle();
    signal.createdBehind('charge-point-1');
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(0);
    pendingCalls.splice(0).forEach((answer) => answer());
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(1);
  });

  it('claims at once for a command created behind a lane it does not deliver', async () => {
    signal.deliverLeased(command(1));
    await settle();
    signal.createdBehind('charge-point-2');
    await settle();
    expect(claims).toHaveLength(1);
  });

  it('does not claim for a command created behind a lane whose ending handed the lane over to it', async () => {
    signal.deliverLeased(command(1));
    await settle();
    signal.createdBehind('charge-point-1');
    // The ending's statement leased the lane's next command to this instance before the attempt was over.
    signal.deliverLeased({ ...command(2), controller_uuid: 'charge-point-1' });
    await settle();
    pendingCalls.shift()!();
    await settle();
    await jest.advanceTimersByTimeAsync(10);
    expect(claims).toHaveLength(0);
    expect(pendingCalls).toHaveLength(1);
  });
});

/**
 * Recovery: what makes the dispatcher try again at once instead of after a reply timeout, a lease or a recheck. The
 * stand-ins never answer by themselves and the timers are fake and never advanced past a timeout, so only the wakes
 * can explain what happens.
 */
describe('CommandDispatcher after a reconnection or an outage', () => {
  let signal: DispatchSignal;
  let claims: number;
  let calls: {
    command: string;
    signal: AbortSignal | undefined;
    answer: (result: GatewayCallResult) => void;
  }[];
  let released: { uuid: string; delayMs: number; unconfirmed: boolean | undefined }[];
  let awaited: { uuid: string; recheckMs: number }[];
  let woken: string[];
  let finished: string[];
  let queue: Partial<DeliveryQueue>;

  const command = (index: number, status = 'pending') =>
    ({
      uuid: `command-${index}`,
      controller_uuid: `charge-point-${index}`,
      target_type: 'controller',
      status,
      target_deleted_at: null,
      valid_until: new Date(Date.now() + 60_000),
      created_at: new Date(),
    }) as unknown as ClaimedCommand;

  /** A gateway that answers only when told to, and gives up waiting when interrupted (as GatewayCallClient does). */
  const gateway: Partial<GatewayCallClient> = {
    call: (_controller, request, _timeout, interrupt) =>
      new Promise<GatewayCallResult>((resolve) => {
        calls.push({ command: request.commandUuid, signal: interrupt, answer: resolve });
        interrupt?.addEventListener('abort', () =>
          resolve({ kind: 'interrupted', reason: String(interrupt.reason) }),
        );
      }),
  };

  /** Delivers both commands, and the gateway finds both charge points offline. */
  const offlineBoth = async (...commands: ClaimedCommand[]) => {
    for (const each of commands) signal.deliverLeased(each);
    await drain();
    for (const call of calls.slice(-commands.length)) call.answer({ kind: 'offline' });
    await drain();
  };

  beforeEach(() => {
    jest.useFakeTimers();
    claims = 0;
    calls = [];
    released = [];
    awaited = [];
    woken = [];
    finished = [];
    signal = new DispatchSignal();
    queue = {
      claimDue: () => {
        claims += 1;
        return Promise.resolve([]);
      },
      release: (_owner, uuid, delayMs, unconfirmed) => {
        released.push({ uuid, delayMs, unconfirmed });
        return Promise.resolve();
      },
      awaitConnection: (_owner, head, recheckMs) => {
        awaited.push({ uuid: head.uuid, recheckMs });
        return Promise.resolve();
      },
      wakeLanes: (controllerUuids) => {
        woken.push(...controllerUuids);
        return Promise.resolve(true);
      },
    };
    dispatcherOn(signal, queue, gateway, {
      finish: (uuid) => {
        finished.push(uuid);
        return Promise.resolve(true);
      },
    });
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('asks again at once when the charge point connects anew while a reply is awaited, and claims again', async () => {
    signal.deliverLeased(command(1));
    await drain();
    expect(calls).toHaveLength(1);

    // Another charge point connecting changes nothing for this delivery.
    signal.chargePointConnected('charge-point-2');
    await drain();
    expect(calls[0].signal?.aborted).toBe(false);

    signal.chargePointConnected('charge-point-1');
    await drain();
    await jest.advanceTimersByTimeAsync(10);
    // Due again at once and unconfirmed (the first request may have gone out), its lane woken, a claim run made.
    expect(released).toEqual([{ uuid: 'command-1', delayMs: 0, unconfirmed: true }]);
    expect(woken).toEqual(['charge-point-1']);
    expect(claims).toBe(1);
  });

  it('wakes the lane of a charge point that connected while its attempt was finding it offline', async () => {
    let deferred!: () => void;
    queue.awaitConnection = (_owner, head, recheckMs) => {
      awaited.push({ uuid: head.uuid, recheckMs });
      return new Promise<void>((resolve) => (deferred = resolve));
    };
    signal.deliverLeased(command(1));
    await drain();
    calls[0].answer({ kind: 'offline' });
    await drain();
    expect(awaited).toEqual([{ uuid: 'command-1', recheckMs: 15_000 }]);

    // The connected event may have woken the lane before this deferral is written: the lane is woken after it.
    signal.chargePointConnected('charge-point-1');
    expect(woken).toEqual([]);
    deferred();
    await drain();
    await jest.advanceTimersByTimeAsync(10);
    expect(woken).toEqual(['charge-point-1']);
    expect(claims).toBe(1);
  });

  it('asks again every delivery waiting for a reply when NATS is back, and does not take "offline" for a while', async () => {
    signal.deliverLeased(command(1));
    signal.deliverLeased(command(2, 'sent'));
    await drain();
    expect(calls).toHaveLength(2);

    signal.natsReconnected();
    await drain();
    await jest.advanceTimersByTimeAsync(10);
    expect(released).toEqual([
      { uuid: 'command-1', delayMs: 0, unconfirmed: true },
      { uuid: 'command-2', delayMs: 0, unconfirmed: true },
    ]);
    expect(claims).toBeGreaterThanOrEqual(1);

    // Asked again while the gateways may not have registered their call subjects again: no responders.
    released.length = 0;
    await offlineBoth(command(3), command(4, 'sent'));
    const retryMs = COMMAND_SERVICE_TUNING.deliveryRetryDelayMs;
    expect(awaited).toEqual([{ uuid: 'command-3', recheckMs: retryMs }]);
    expect(released).toEqual([{ uuid: 'command-4', delayMs: retryMs, unconfirmed: true }]);
    expect(finished).toEqual([]);

    // Once NATS has been back for reconnectSettleMs, no responders means offline again.
    await jest.advanceTimersByTimeAsync(COMMAND_SERVICE_TUNING.reconnectSettleMs);
    await offlineBoth(command(5), command(6, 'sent'));
    expect(awaited).toContainEqual({ uuid: 'command-5', recheckMs: 15_000 });
    expect(finished).toEqual(['command-6']);
  });

  it('gives back a claim the database did not take back by the first claim run that reaches it again', async () => {
    let databaseUp = false;
    const down = () => Promise.reject(new Error('connect ECONNREFUSED'));
    queue.release = (_owner, uuid, delayMs, unconfirmed) => {
      if (!databaseUp) return down();
      released.push({ uuid, delayMs, unconfirmed });
      return Promise.resolve();
    };
    queue.claimDue = () => {
      if (!databaseUp) return down();
      claims += 1;
      return Promise.resolve([]);
    };
    signal.deliverLeased(command(1));
    await drain();
    // The answer cannot be written, nor the claim given back: the command stays leased to this instance.
    calls[0].answer({ kind: 'unanswered', reason: 'timeout' });
    await drain();
    signal.notify();
    await drain();
    expect(released).toEqual([]);
    expect(claims).toBe(0);

    databaseUp = true;
    await jest.advanceTimersByTimeAsync(10);
    signal.notify();
    await drain();
    // Due at once, and unconfirmed: the gateway had been asked.
    expect(released).toEqual([{ uuid: 'command-1', delayMs: 0, unconfirmed: true }]);
    expect(claims).toBe(1);

    // Given back once.
    await jest.advanceTimersByTimeAsync(10);
    signal.notify();
    await drain();
    expect(released).toHaveLength(1);
    expect(claims).toBe(2);
  });
});
