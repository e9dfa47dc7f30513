import { currentRequestId, runWithRequestId } from '@cpc/logging';
import { type GroupedCall, GroupedCalls } from './grouped-calls.js';

/** A run whose groups stay open until released, recording each group's items and request id. */
function heldRuns() {
  const groups: { items: number[]; requestId: string | undefined; release: () => void }[] = [];
  const run = (group: GroupedCall<number, number>[]) =>
    new Promise<void>((done) => {
      groups.push({
        items: group.map((call) => call.item),
        requestId: currentRequestId(),
        release: () => {
          for (const call of group) call.resolve(call.item * 10);
          done();
        },
      });
    });
  return { groups, run };
}

describe('GroupedCalls', () => {
  it('sends a lone call at once, and groups the calls that arrive while the limit of groups is running', async () => {
    const { groups, run } = heldRuns();
    const calls = new GroupedCalls(run, { maxInFlight: 2, maxGroup: 3 });
    const answers = [1, 2, 3, 4, 5, 6, 7].map((item) => calls.call(item));
    expect(groups.map((group) => group.items)).toEqual([[1], [2]]);
    groups[0].release();
    await answers[0];
    await new Promise((resolve) => setImmediate(resolve));
    // The next group takes the first maxGroup calls waiting; the rest wait for a free slot.
    expect(groups.map((group) => group.items)).toEqual([[1], [2], [3, 4, 5]]);
    groups[1].release();
    await answers[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(groups.map((group) => group.items)).toEqual([[1], [2], [3, 4, 5], [6, 7]]);
    groups[2].release();
    groups[3].release();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40, 50, 60, 70]);
  });

  it("runs each group under a request id of its own, not the caller's", async () => {
    const { groups, run } = heldRuns();
    const calls = new GroupedCalls(run, { maxInFlight: 1, maxGroup: 10 });
    const answer = runWithRequestId('caller-request', () => calls.call(1));
    expect(groups[0].requestId).toBeDefined();
    expect(groups[0].requestId).not.toBe('caller-request');
    groups[0].release();
    await expect(answer).resolves.toBe(10);
  });

  it('fails every call of a group whose run throws, and any call the run left unanswered', async () => {
    const failing = new GroupedCalls<number, number>(() => Promise.reject(new Error('statement failed')), {
      maxInFlight: 1,
      maxGroup: 10,
    });
    await expect(Promise.all([failing.call(1), failing.call(2)])).rejects.toThrow('statement failed');

    const forgetful = new GroupedCalls<number, number>(
      (group) => {
        for (const call of group) if (call.item !== 2) call.resolve(call.item);
        return Promise.resolve();
      },
      { maxInFlight: 1, maxGroup: 10 },
    );
    const [first, second] = [forgetful.call(1), forgetful.call(2)];
    await expect(first).resolves.toBe(1);
    await expect(second).rejects.toThrow('without an answer');
  });
});
