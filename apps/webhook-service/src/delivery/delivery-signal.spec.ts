import { jest } from '@jest/globals';
import { DeliverySignal } from './delivery-signal.js';

describe('DeliverySignal', () => {
  it('ends a wait at wake()', async () => {
    const signal = new DeliverySignal();
    const waited = signal.wait(60_000);
    signal.wake();
    await expect(waited).resolves.toBeUndefined();
  });

  it('keeps a wake that found nobody waiting for the next wait, and only for that one', async () => {
    const signal = new DeliverySignal();
    signal.wake();
    signal.wake();
    await expect(signal.wait(60_000)).resolves.toBeUndefined();
    let ended = false;
    const next = signal.wait(20).then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    await next;
  });
});

describe('DeliverySignal, rows acknowledged', () => {
  it('has the floors of a waiting loop read at once, until they reach the event', async () => {
    const signal = new DeliverySignal();
    const reads = jest.fn();
    signal.onRowsAcknowledged(reads);
    const waited = signal.wait(60_000);
    signal.rowsAcknowledged('chargePointAckFloor', 7);
    expect(reads.mock.calls).toEqual([['chargePointAckFloor', 7]]);
    signal.wake(); // what the reading's advance does
    await waited;
  });

  it('wakes a busy loop and has its next wait (the one after the claim it was woken for) read for each floor', async () => {
    const signal = new DeliverySignal();
    const reads = jest.fn();
    signal.onRowsAcknowledged(reads);
    signal.rowsAcknowledged('commandAckFloor', 3);
    signal.rowsAcknowledged('commandAckFloor', 9);
    signal.rowsAcknowledged('chargePointAckFloor', 4);
    expect(reads).not.toHaveBeenCalled();
    await expect(signal.wait(60_000)).resolves.toBeUndefined(); // woken: claims once more
    expect(reads).not.toHaveBeenCalled();
    const waited = signal.wait(60_000); // that claim found nothing: the readings start before the wait
    expect(reads.mock.calls).toEqual([
      ['commandAckFloor', 9],
      ['chargePointAckFloor', 4],
    ]);
    signal.wake();
    await waited;
    signal.wake();
    await signal.wait(60_000);
    const unread = signal.wait(20);
    expect(reads).toHaveBeenCalledTimes(2);
    await unread;
  });

  it('wakes the loop without a listener', async () => {
    const signal = new DeliverySignal();
    const waited = signal.wait(60_000);
    signal.rowsAcknowledged('commandAckFloor', 1);
    await expect(waited).resolves.toBeUndefined();
  });
});
