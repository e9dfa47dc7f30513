import { deadlineOf } from './request-context-rpc.interceptor.js';

describe('deadlineOf', () => {
  it("counts the caller's timeout from now", () => {
    expect(deadlineOf('5000', 1_000)).toBe(6_000);
  });

  it('knows no deadline without a header, or with one that is not a positive number', () => {
    for (const header of [undefined, '', 'soon', '0', '-5', 'Infinity']) {
      expect(deadlineOf(header, 1_000)).toBeUndefined();
    }
  });
});
