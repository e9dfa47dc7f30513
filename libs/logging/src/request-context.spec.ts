import {
  currentRequestDeadline,
  currentRequestId,
  noteRequestWorkStarted,
  requestAbandoned,
  runOutsideRequest,
  runWithRequestId,
} from './request-context.js';

describe('request context', () => {
  it('knows no deadline outside a request, nor in a request whose caller named none', () => {
    expect(requestAbandoned()).toBe(false);
    runWithRequestId('r-1', () => {
      expect(currentRequestDeadline()).toBeUndefined();
      expect(requestAbandoned(Number.MAX_SAFE_INTEGER)).toBe(false);
    });
  });

  it('tells a request abandoned once its deadline has passed, in everything it awaits, until it begins', async () => {
    await runWithRequestId(
      'r-2',
      async () => {
        await Promise.resolve();
        expect(currentRequestDeadline()).toBe(1_000);
        expect(requestAbandoned(999)).toBe(false);
        expect(requestAbandoned(1_000)).toBe(true);
        await Promise.resolve().then(() => noteRequestWorkStarted());
        // Begun: finished whatever its deadline.
        expect(requestAbandoned(2_000)).toBe(false);
      },
      1_000,
    );
  });

  it('runs work the request sets going for others outside it: no id, no deadline', async () => {
    const seen = await runWithRequestId(
      'r-3',
      () =>
        runOutsideRequest(() => Promise.resolve().then(() => [currentRequestId(), currentRequestDeadline()])),
      1_000,
    );
    expect(seen).toEqual([undefined, undefined]);
  });
});
