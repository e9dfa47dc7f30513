import { WEBHOOK_SERVICE_TUNING } from '../webhook-service.config.js';
import { retryDelayMs } from './retry-schedule.js';

describe('retryDelayMs', () => {
  const middle = () => 0.5;

  it('doubles from 5 s up to 1 h', () => {
    const delays = [1, 2, 3, 4, 10, 11, 12, 50].map((attempts) =>
      retryDelayMs(attempts, WEBHOOK_SERVICE_TUNING, middle),
    );
    expect(delays).toEqual([5000, 10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  it('jitters by ±20 %', () => {
    expect(retryDelayMs(1, WEBHOOK_SERVICE_TUNING, () => 0)).toBe(4000);
    expect(retryDelayMs(1, WEBHOOK_SERVICE_TUNING, () => 0.999_999)).toBe(6000);
  });
});
