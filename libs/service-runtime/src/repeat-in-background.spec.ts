import { jest } from '@jest/globals';
import { repeatInBackground } from './repeat-in-background.js';

describe('repeatInBackground', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs the task every interval, hands failures to onError and goes on, and stops when told', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const stop = repeatInBackground({
      everyMs: 1000,
      task: () => {
        runs++;
        return runs === 2 ? Promise.reject(new Error('second run failed')) : Promise.resolve();
      },
      onError: (error) => errors.push(error),
    });
    await jest.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(3);
    expect(errors).toEqual([new Error('second run failed')]);
    stop();
    await jest.advanceTimersByTimeAsync(3000);
    expect(runs).toBe(3);
  });
});
