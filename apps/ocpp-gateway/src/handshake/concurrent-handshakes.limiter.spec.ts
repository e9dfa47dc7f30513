import { jest } from '@jest/globals';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import {
  ConcurrentHandshakesLimiter,
  type HandshakeRelease,
  type WaitingHandshake,
} from './concurrent-handshakes.limiter.js';

const WAIT_MS = 10_000;

function limiterWith(limits: { perAddress?: number; total?: number; waiting?: number }) {
  return new ConcurrentHandshakesLimiter({
    maxConcurrentHandshakesPerAddress: limits.perAddress ?? 100,
    maxConcurrentHandshakes: limits.total ?? 2,
    maxWaitingHandshakes: limits.waiting ?? 3,
    handshakeWaitMs: WAIT_MS,
  } as OcppGatewayConfig);
}

function admitted(outcome: ReturnType<ConcurrentHandshakesLimiter['admit']>): HandshakeRelease {
  if (typeof outcome !== 'function')
    throw new Error(`expected a place at once, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function queued(outcome: ReturnType<ConcurrentHandshakesLimiter['admit']>): WaitingHandshake {
  if (typeof outcome !== 'object') throw new Error(`expected a place in the queue, got ${String(outcome)}`);
  return outcome;
}

/** Settles what the queue decided so far, as the event loop would. */
const settled = async <T>(promise: Promise<T>): Promise<T | 'pending'> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

describe('ConcurrentHandshakesLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('admits up to the total at once, then queues first come first admitted', async () => {
    const limiter = limiterWith({ total: 2 });
    const first = admitted(limiter.admit('10.0.0.1'));
    const second = admitted(limiter.admit('10.0.0.2'));
    const third = queued(limiter.admit('10.0.0.3'));
    const fourth = queued(limiter.admit('10.0.0.4'));
    expect([limiter.inProgress, limiter.waiting]).toEqual([2, 2]);
    expect(await settled(third.admitted)).toBe('pending');

    second();
    const thirdRelease = await third.admitted;
    expect(typeof thirdRelease).toBe('function');
    expect(await settled(fourth.admitted)).toBe('pending');
    expect([limiter.inProgress, limiter.waiting]).toEqual([2, 1]);

    first();
    expect(typeof (await fourth.admitted)).toBe('function');
    expect([limiter.inProgress, limiter.waiting]).toEqual([2, 0]);
  });

  it('answers 503 at once when the queue is full, and 429 when the address has its share checking or waiting', () => {
    const limiter = limiterWith({ total: 1, waiting: 2, perAddress: 2 });
    admitted(limiter.admit('10.0.0.1'));
    queued(limiter.admit('10.0.0.1'));
    expect(limiter.admit('10.0.0.1')).toBe(429);
    queued(limiter.admit('10.0.0.2'));
    expect(limiter.admit('10.0.0.3')).toBe(503);
  });

  it('refuses with 503 an upgrade whose wait is over, and frees its address', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const limiter = limiterWith({ total: 1, perAddress: 1 });
    const holder = admitted(limiter.admit('10.0.0.1'));
    const late = queued(limiter.admit('10.0.0.2'));
    jest.advanceTimersByTime(WAIT_MS - 1);
    expect(await settled(late.admitted)).toBe('pending');
    jest.advanceTimersByTime(1);
    await expect(late.admitted).resolves.toBe(503);
    expect(limiter.waiting).toBe(0);
    holder();
    admitted(limiter.admit('10.0.0.2'));
  });

  it('takes an abandoned upgrade out of the queue: it is never admitted and its address is free', async () => {
    const limiter = limiterWith({ total: 1, perAddress: 1 });
    const holder = admitted(limiter.admit('10.0.0.1'));
    const quitter = queued(limiter.admit('10.0.0.2'));
    const next = queued(limiter.admit('10.0.0.3'));
    quitter.abandon();
    expect(limiter.waiting).toBe(1);
    expect(await settled(quitter.admitted)).toBe('pending');
    holder();
    expect(typeof (await next.admitted)).toBe('function');
    expect(await settled(quitter.admitted)).toBe('pending');
    expect(queued(limiter.admit('10.0.0.2'))).toBeDefined();
  });

  it('answers every waiting upgrade 503 when the instance stops', async () => {
    const limiter = limiterWith({ total: 1 });
    admitted(limiter.admit('10.0.0.1'));
    const waiting = [queued(limiter.admit('10.0.0.2')), queued(limiter.admit('10.0.0.3'))];
    limiter.refuseWaiting();
    await expect(Promise.all(waiting.map((entry) => entry.admitted))).resolves.toEqual([503, 503]);
    expect(limiter.waiting).toBe(0);
  });

  it('gives a place back once however often its release is called', () => {
    const limiter = limiterWith({ total: 1 });
    const release = admitted(limiter.admit('10.0.0.1'));
    release();
    release();
    expect(limiter.inProgress).toBe(0);
    admitted(limiter.admit('10.0.0.1'));
    expect(limiter.admit('10.0.0.2')).toMatchObject({ admitted: expect.any(Promise) });
  });
});
