import {
  currentRequestDeadline,
  currentRequestId,
  requestDeadlinePassed,
  runOutsideRequest,
  runWithRequestId,
} from './request-context.js';

describe('request context', () => {
  it('knows no deadline outside a request, nor in a request whose caller named none', () => {
    expect(requestDeadlinePassed()).toBe(false);
    runWithRequestId('r-1', () => {
      expect(currentRequestDeadline()).toBeUndefined();
      expect(requestDeadlinePassed(Number.MAX_SAFE_INTEGER)).toBe(false);
    });
  });

  it("tells when the request's deadline has passed, in everything the request awaits", async () => {
    await runWithRequestId(
      'r-2',
      async () => {
        await Promise.resolve();
        expect(currentRequestDeadline()).toBe(1_000);
        expect(requestDeadlinePassed(999)).toBe(false);
        expect(requestDeadlinePassed(1_000)).toBe(true);
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
