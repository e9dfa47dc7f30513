import { sumWork, workBetween, workPer, type WorkReading } from './work-counters.js';

const reading = (nats: WorkReading['nats'], transactionId: number, walBytes: number): WorkReading => ({
  nats,
  transactionId,
  walBytes,
});

describe('work counters', () => {
  it("counts the transaction ids between two readings, not the later reading's own", () => {
    const work = workBetween(
      reading({ in_msgs: 100, out_msgs: 150 }, 1000, 5_000),
      reading({ in_msgs: 1_660, out_msgs: 2_010 }, 1301, 1_305_000),
    );
    expect(work).toEqual({
      natsMessagesIn: 1_560,
      natsMessagesOut: 1_860,
      writeTransactions: 300,
      walBytes: 1_300_000,
    });
    expect(workBetween(reading(null, 7, 0), reading(null, 8, 0)).writeTransactions).toBe(0);
  });

  it('leaves out the NATS figures when either reading has none', () => {
    const work = workBetween(reading(null, 1, 0), reading({ in_msgs: 5, out_msgs: 5 }, 12, 800));
    expect([work.natsMessagesIn, work.natsMessagesOut]).toEqual([null, null]);
    expect(workPer(work, 10)).toEqual({ writeTransactions: 1, walBytes: 80 });
  });

  it("adds up a commands phase's steps, without NATS figures when a step has none", () => {
    const step = (natsMessagesIn: number | null) => ({
      work: { natsMessagesIn, natsMessagesOut: 3, writeTransactions: 2, walBytes: 100 },
    });
    expect(sumWork({ steps: [step(1), step(4)] })).toEqual({
      natsMessagesIn: 5,
      natsMessagesOut: 6,
      writeTransactions: 4,
      walBytes: 200,
    });
    expect(sumWork({ steps: [step(1), step(null)] }).natsMessagesIn).toBeNull();
  });

  it('divides by the units to two decimals, and gives nothing for none', () => {
    const work = {
      natsMessagesIn: 1_561,
      natsMessagesOut: 1_862,
      writeTransactions: 301,
      walBytes: 1_300_000,
    };
    expect(workPer(work, 100)).toEqual({
      natsMessagesIn: 15.61,
      natsMessagesOut: 18.62,
      writeTransactions: 3.01,
      walBytes: 13_000,
    });
    expect(workPer(work, 0)).toEqual({});
  });
});
