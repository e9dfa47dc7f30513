import { IncomingCallBudget } from './incoming-call.budget.js';

describe('IncomingCallBudget', () => {
  const limits = { burst: 3, perSecond: 2, refusalsBeforeClose: 4 };

  it('admits a burst, then refuses until tokens come back at the refill rate', () => {
    const budget = new IncomingCallBudget(limits, 0);
    expect([budget.take(0), budget.take(0), budget.take(0)]).toEqual(['admitted', 'admitted', 'admitted']);
    expect(budget.take(0)).toBe('refused');
    // Half a second at 2/s brings one token back, not more.
    expect(budget.take(500)).toBe('admitted');
    expect(budget.take(500)).toBe('refused');
    // A long quiet spell refills to the burst and no further.
    expect([1, 2, 3, 4].map(() => budget.take(60_000))).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'refused',
    ]);
  });

  it('says exhausted once the refusals in a row reach the limit, and an admitted call resets the count', () => {
    const budget = new IncomingCallBudget({ ...limits, burst: 1 }, 0);
    expect(budget.take(0)).toBe('admitted');
    expect([budget.take(0), budget.take(0), budget.take(0)]).toEqual(['refused', 'refused', 'refused']);
    expect(budget.take(500)).toBe('admitted');
    expect([budget.take(500), budget.take(500), budget.take(500)]).toEqual(['refused', 'refused', 'refused']);
    expect(budget.take(500)).toBe('exhausted');
  });

  it('does not mint tokens when the clock steps back', () => {
    const budget = new IncomingCallBudget({ ...limits, burst: 1 }, 10_000);
    expect(budget.take(10_000)).toBe('admitted');
    expect(budget.take(0)).toBe('refused');
  });
});
