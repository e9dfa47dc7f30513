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
      rereads: 2,
      rereadDelayMs: 5,
      now: () => clock,
    });
  });

  afterEach(() => floors.close());

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

  describe('reading until a floor reaches an event acknowledged without confirmation', () => {
    const rereadDelay = () => new Promise((resolve) => setTimeout(resolve, 10));

    beforeEach(async () => {
      await Promise.all([floors.current(), Promise.resolve().then(() => reads.answer(5, 2))]);
      events.length = 0;
    });

    it('reads again while the floor is short of it, and stops once it is reached', async () => {
      floors.readUntil('chargePointAckFloor', 4);
      expect(reads.pending).toHaveLength(1);
      reads.answer(5, 2); // the server had not taken the acknowledgement yet
      await settle();
      expect(reads.pending).toHaveLength(0);
      await rereadDelay();
      expect(reads.pending).toHaveLength(1);
      reads.answer(5, 4);
      await settle();
      expect(events).toEqual(['advance']);
      await rereadDelay();
      expect(reads.pending).toHaveLength(0);
    });

    it('gives up after its rereads (the polls find the rows then)', async () => {
      floors.readUntil('commandAckFloor', 9);
      for (let read = 0; read < 3; read += 1) {
        await rereadDelay();
        expect(reads.pending).toHaveLength(1);
        reads.answer(5, 2);
        await settle();
      }
      await rereadDelay();
      expect(reads.pending).toHaveLength(0);
      expect(events).toEqual([]);
    });

    it('rereads after a read that fails too', async () => {
      floors.readUntil('commandAckFloor', 6);
      reads.fail();
      await settle();
      await rereadDelay();
      reads.answer(6, 2);
      await settle();
      expect(events).toEqual(['failing', 'recovered', 'advance']);
    });

    it('reads nothing when the last reading has reached it already', () => {
      floors.readUntil('commandAckFloor', 5);
      expect(reads.pending).toHaveLength(0);
    });
  });
});
