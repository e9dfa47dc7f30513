import { jest } from '@jest/globals';
import type { Principal } from '@cpc/contracts';
import { loadApiGatewayConfig } from '../api-gateway.config.js';
import type { WindowBudgetStore } from './shared-window-rate-limiter.js';
import { SubjectRequestBudgets } from './subject-request-budgets.js';

const principal = { tenantUuid: 't-1', subject: 'u-1' } as Principal;

describe('SubjectRequestBudgets', () => {
  afterEach(() => jest.useRealTimers());

  it('counts in this replica alone while the shared store fails, and tries the store again after a pause', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'], now: 1_000_000 });
    const config = loadApiGatewayConfig({ API_RATE_LIMIT_PER_SUBJECT: '2' });
    let available = false;
    let reads = 0;
    const store: WindowBudgetStore = {
      read: () => {
        reads += 1;
        return available ? Promise.resolve(undefined) : Promise.reject(new Error('JetStream not available'));
      },
      write: () => Promise.resolve(true),
    };
    const budgets = new SubjectRequestBudgets(config, store);

    const alone = [await budgets.hit(principal), await budgets.hit(principal), await budgets.hit(principal)];
    expect(alone.map(({ allowed }) => allowed)).toEqual([true, true, false]);
    expect(reads).toBe(1);

    available = true;
    jest.setSystemTime(1_000_000 + config.tuning.rateLimitStoreRetryMs);
    expect((await budgets.hit(principal)).allowed).toBe(true);
    expect(reads).toBe(2);
  });
});
