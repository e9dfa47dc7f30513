import { checkWebhooks, type ReceivedWebhook } from './webhook-witness.js';

let clock = 0;
const webhook = (
  commandUuid: string,
  status: string,
  previousStatus: string | null,
  webhookId = `msg_${commandUuid}_${status}`,
): ReceivedWebhook => ({ webhookId, commandUuid, status, previousStatus, signed: true, at: (clock += 1) });

describe('checkWebhooks', () => {
  it('passes a complete chain, with repeats under the same webhook-id', () => {
    const check = checkWebhooks(
      [
        webhook('a', 'pending', null),
        webhook('a', 'sent', 'pending'),
        webhook('a', 'sent', 'pending'),
        webhook('a', 'accepted', 'sent'),
      ],
      new Map([['a', 'accepted']]),
    );
    expect(check).toMatchObject({
      expected: 3,
      delivered: 3,
      lost: 0,
      repeatedSameId: 1,
      doubled: 0,
      outOfOrder: 0,
    });
  });

  it('finds a lost link, a doubled status, a status before the one it follows, and bad signatures', () => {
    const check = checkWebhooks(
      [
        webhook('a', 'pending', null),
        webhook('a', 'accepted', 'sent'),
        webhook('b', 'sent', 'pending'),
        webhook('b', 'pending', null),
        webhook('b', 'pending', null, 'msg_other'),
        { ...webhook('c', 'pending', null), signed: false },
      ],
      new Map([
        ['a', 'accepted'],
        ['b', 'sent'],
        ['c', 'failed'],
      ]),
    );
    expect(check).toMatchObject({ lost: 2, doubled: 1, outOfOrder: 1, badSignatures: 1 });
    expect(check.samples.lost).toEqual(['a sent', 'c failed']);
  });
});
