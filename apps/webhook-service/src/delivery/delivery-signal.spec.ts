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

describe('DeliverySignal, rows acknowledged without confirmation', () => {
  it('has a waiting loop read the floors at once, as for confirmed ones', async () => {
    const signal = new DeliverySignal();
    const reads = jest.fn();
    signal.onRowsAcknowledged(reads);
    const waited = signal.wait(60_000);
    signal.rowsAcknowledgedUnconfirmed();
    expect(reads).toHaveBeenCalledTimes(1);
    signal.wake(); // what the reading's advance does
    await waited;
  });

  it('wakes a busy loop and has its next wait (the one after the claim it was woken for) read the floors', async () => {
    const signal = new DeliverySignal();
    const reads = jest.fn();
    signal.onRowsAcknowledged(reads);
    signal.rowsAcknowledgedUnconfirmed();
    expect(reads).not.toHaveBeenCalled();
    await expect(signal.wait(60_000)).resolves.toBeUndefined(); // woken: claims once more
    expect(reads).not.toHaveBeenCalled();
    const waited = signal.wait(60_000); // that claim found nothing: the reading starts before the wait
    expect(reads).toHaveBeenCalledTimes(1);
    signal.wake();
    await waited;
    signal.wake();
    await signal.wait(60_000);
    const unread = signal.wait(20);
    expect(reads).toHaveBeenCalledTimes(1);
    await unread;
  });
});
