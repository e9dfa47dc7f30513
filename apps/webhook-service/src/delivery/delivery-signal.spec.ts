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
