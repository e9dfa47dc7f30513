import { ClaimedDeliveries } from './claimed-deliveries.js';

const row = (id: string, subscription_uuid: string) => ({ id, subscription_uuid });

describe('ClaimedDeliveries', () => {
  let clock: number;
  let waiting: ClaimedDeliveries<ReturnType<typeof row>>;

  beforeEach(() => {
    clock = 1000;
    waiting = new ClaimedDeliveries(30_000, () => clock);
  });

  it("hands out a subscription's rows in the order claimed, only while it may send", () => {
    waiting.add(row('a1', 'a'));
    waiting.add(row('b1', 'b'));
    waiting.add(row('a2', 'a'));
    const expired: ReturnType<typeof row>[] = [];
    expect([waiting.size, waiting.waitingFor('a'), waiting.waitingFor('b')]).toEqual([3, 2, 1]);

    expect(waiting.next((subscription) => subscription === 'b', expired)?.id).toBe('b1');
    expect(waiting.next((subscription) => subscription === 'b', expired)).toBeUndefined();
    expect(waiting.next(() => true, expired)?.id).toBe('a1');
    expect(waiting.next(() => true, expired)?.id).toBe('a2');
    expect(waiting.next(() => true, expired)).toBeUndefined();
    expect([waiting.size, [...waiting.subscriptions()], expired]).toEqual([0, [], []]);
  });

  it('never sends a row that waited past its time, and hands it back as expired', () => {
    waiting.add(row('old', 'a'));
    clock += 20_000;
    waiting.add(row('young', 'a'));
    clock += 10_001;
    const expired: ReturnType<typeof row>[] = [];
    expect(waiting.next(() => true, expired)?.id).toBe('young');
    expect(expired.map((delivery) => delivery.id)).toEqual(['old']);
    expect(waiting.size).toBe(0);
  });

  it("takes out a disabled subscription's rows, and everything at shutdown", () => {
    waiting.add(row('a1', 'a'));
    waiting.add(row('b1', 'b'));
    waiting.add(row('a2', 'a'));
    expect(waiting.dropSubscription('a').map((delivery) => delivery.id)).toEqual(['a1', 'a2']);
    expect([waiting.size, waiting.waitingFor('a')]).toEqual([1, 0]);
    waiting.add(row('c1', 'c'));
    expect(waiting.drain().map((delivery) => delivery.id)).toEqual(['b1', 'c1']);
    expect(waiting.size).toBe(0);
  });
});
