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

  it('wakes the loop when a reading lets more rows through (the first does), not when it finds the same floors', async () => {
    const first = floors.current();
    reads.answer(5, 2);
    await first;
    expect(events).toEqual(['advance']);

    clock += 10;
    await floors.current();
    reads.answer(5, 2);
    await settle();
    expect(events).toEqual(['advance']);

    clock += 10;
    await floors.current();
    reads.answer(5, 3);
    await settle();
    expect(events).toEqual(['advance', 'advance']);
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
    expect(events).toEqual(['failing', 'recovered', 'advance', 'failing', 'recovered', 'advance']);
  });

  it('reads at once when told, however young the reading, and once more after a read already in flight', async () => {
    const first = floors.current();
    reads.answer(5, 2);
    await first;
    events.length = 0;

    floors.readNow();
    expect(reads.pending).toHaveLength(1);
    reads.answer(7, 2);
    await settle();
    expect(events).toEqual(['advance']);
    await expect(floors.current()).resolves.toEqual({ commandAckFloor: 7, chargePointAckFloor: 2 });

    // Told twice while a read is in flight (asked before what it is to see): one read more after it, not two.
    floors.readNow();
    floors.readNow();
    floors.readNow();
    expect(reads.pending).toHaveLength(1);
    reads.answer(7, 2);
    await settle();
    expect(reads.pending).toHaveLength(1);
    reads.answer(9, 2);
    await settle();
    expect(reads.pending).toHaveLength(0);
    expect(events).toEqual(['advance', 'advance']);
  });

  it('reads again after a read in flight that fails, when told meanwhile', async () => {
    await Promise.all([floors.current(), Promise.resolve().then(() => reads.answer(5))]);
    events.length = 0;
    floors.readNow();
    floors.readNow();
    reads.fail();
    await settle();
    expect(reads.pending).toHaveLength(1);
    reads.answer(6);
    await settle();
    expect(events).toEqual(['failing', 'recovered', 'advance']);
  });
});
