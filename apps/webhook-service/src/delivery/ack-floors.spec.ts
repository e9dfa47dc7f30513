import { type AckFloorReading, AckFloors } from './ack-floors.js';

/** A read that the test answers or fails when it chooses. */
function scriptedReads() {
  const pending: { resolve: (reading: AckFloorReading) => void; reject: (error: Error) => void }[] = [];
  return {
    read: () =>
      new Promise<AckFloorReading>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
    pending,
    answer: (commandAckFloor: number, chargePointAckFloor = 0) =>
      pending.shift()!.resolve({ commandAckFloor, chargePointAckFloor }),
    fail: () => pending.shift()!.reject(new Error('jetstream away')),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('AckFloors', () => {
  let clock: number;
  let reads: ReturnType<typeof scriptedReads>;
  let events: string[];
  let floors: AckFloors;

  beforeEach(() => {
    clock = 1000;
    reads = scriptedReads();
    events = [];
    floors = new AckFloors({
      read: reads.read,
      maxAgeMs: 10,
      onAdvance: () => events.push('advance'),
      onFailing: () => events.push('failing'),
      onRecovered: () => events.push('recovered'),
      now: () => clock,
    });
  });

  it('makes the first claim wait for a reading, later ones take the last reading without waiting', async () => {
    const first = floors.current();
    expect(reads.pending).toHaveLength(1);
    reads.answer(5, 2);
    await expect(first).resolves.toEqual({ commandAckFloor: 5, chargePointAckFloor: 2 });

    clock += 9;
    await expect(floors.current()).resolves.toEqual({ commandAckFloor: 5, chargePointAckFloor: 2 });
    expect(reads.pending).toHaveLength(0);

    clock += 1;
    await expect(floors.current()).resolves.toEqual({ commandAckFloor: 5, chargePointAckFloor: 2 });
    await expect(floors.current()).resolves.toEqual({ commandAckFloor: 5, chargePointAckFloor: 2 });
    expect(reads.pending).toHaveLength(1);
    reads.answer(9, 2);
    await settle();
    await expect(floors.current()).resolves.toEqual({ commandAckFloor: 9, chargePointAckFloor: 2 });
  });

  it('wakes the loop when a background reading lets more rows through, not when it finds the same floors', async () => {
    const first = floors.current();
    reads.answer(5, 2);
    await first;
    expect(events).toEqual([]);

    clock += 10;
    await floors.current();
    reads.answer(5, 2);
    await settle();
    expect(events).toEqual([]);

    clock += 10;
    await floors.current();
    reads.answer(5, 3);
    await settle();
    expect(events).toEqual(['advance']);
  });

  it('keeps the last reading while reads fail, reports the failure once and the recovery once', async () => {
    const first = floors.current();
    reads.fail();
    await expect(first).rejects.toThrow('jetstream away');
    const second = floors.current();
    reads.answer(5);
    await second;

    for (let attempt = 0; attempt < 3; attempt += 1) {
      clock += 10;
      await expect(floors.current()).resolves.toEqual({ commandAckFloor: 5, chargePointAckFloor: 0 });
      reads.fail();
      await settle();
    }
    clock += 10;
    await floors.current();
    reads.answer(6);
    await settle();
    expect(events).toEqual(['failing', 'recovered', 'failing', 'recovered', 'advance']);
  });
});
