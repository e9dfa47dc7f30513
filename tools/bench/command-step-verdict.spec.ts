import { highestRateHeld, type StepFigures, verdictOf } from './command-step-verdict.js';

function step(overrides: Partial<StepFigures> = {}): StepFigures {
  return {
    targetPerSecond: 1000,
    created: 20000,
    refused: 0,
    skipped: 0,
    terminal: 20000,
    byStatus: { accepted: 20000 },
    received: 20000,
    postToReceivedMs: { p99: 48 },
    ...overrides,
  };
}

describe('a command step held or not', () => {
  it('holds when every command ended accepted, every call arrived and p99 POST → received is under 1 s', () => {
    expect(verdictOf(step())).toEqual({ held: true, shortfalls: [] });
  });

  it('names every shortfall', () => {
    expect(
      verdictOf(
        step({
          refused: 2,
          skipped: 5,
          terminal: 19990,
          byStatus: { accepted: 19980, timeout: 10 },
          received: 19985,
          postToReceivedMs: { p99: 1000 },
        }),
      ),
    ).toEqual({
      held: false,
      shortfalls: [
        '2 POSTs refused',
        "5 POSTs not sent (two seconds' worth unanswered)",
        '10 commands never ended',
        'ended otherwise: 10 timeout',
        '15 calls never received',
        'p99 POST → received 1000 ms (≥ 1000 ms)',
      ],
    });
    expect(verdictOf(step({ postToReceivedMs: { p99: null } })).shortfalls).toEqual([
      'p99 POST → received unknown (≥ 1000 ms)',
    ]);
  });

  it('reports the highest rate held, whichever steps failed below it', () => {
    const steps = [
      step({ targetPerSecond: 500 }),
      step({ targetPerSecond: 1000, postToReceivedMs: { p99: 1500 } }),
      step({ targetPerSecond: 1500 }),
      step({ targetPerSecond: 2000, refused: 1 }),
    ];
    expect(highestRateHeld(steps)).toBe(1500);
    expect(highestRateHeld(steps.slice(3))).toBeNull();
  });
});
