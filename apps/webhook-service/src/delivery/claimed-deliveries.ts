/** What ClaimedDeliveries needs of a claimed delivery. */
export interface ClaimedForSubscription {
  id: string;
  subscription_uuid: string;
}

interface Waiting<T> {
  delivery: T;
  claimedAt: number;
}

/**
 * Deliveries this replica has claimed (their lease hides them from every other replica) and not sent yet, because their
 * subscription's requests, or the replica's, are at their cap. When a request is answered, the next of its
 * subscription goes out at once instead of after the next claim round: the claim rounds keep this room filled, and a
 * request slot no longer stands idle while one runs. Each row here is the head of its own queue (a claim takes only
 * heads), so any order among them keeps the order per subject; a subscription's rows leave in the order claimed.
 *
 * A row that has waited longer than `maxWaitMs` is not sent any more (its lease could end during the attempt, and
 * another replica then send it as well): `next` hands it back as expired, for the caller to give back to the database.
 */
export class ClaimedDeliveries<T extends ClaimedForSubscription> {
  private readonly bySubscription = new Map<string, Waiting<T>[]>();
  private total = 0;

  constructor(
    private readonly maxWaitMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Rows waiting here, of all subscriptions. */
  get size(): number {
    return this.total;
  }

  /** Rows of one subscription waiting here. */
  waitingFor(subscriptionUuid: string): number {
    return this.bySubscription.get(subscriptionUuid)?.length ?? 0;
  }

  /** The subscriptions with rows waiting here. */
  subscriptions(): IterableIterator<string> {
    return this.bySubscription.keys();
  }

  add(delivery: T): void {
    const queue = this.bySubscription.get(delivery.subscription_uuid);
    const waiting = { delivery, claimedAt: this.now() };
    if (queue) queue.push(waiting);
    else this.bySubscription.set(delivery.subscription_uuid, [waiting]);
    this.total += 1;
  }

  /**
   * Takes the next row to send: the oldest of a subscription that `mayStart` lets send one more request, or undefined
   * when no subscription with rows here may. Rows that waited too long are taken out on the way into `expired`.
   */
  next(mayStart: (subscriptionUuid: string) => boolean, expired: T[]): T | undefined {
    const oldest = this.now() - this.maxWaitMs;
    for (const [subscriptionUuid, queue] of this.bySubscription) {
      while (queue.length > 0 && queue[0].claimedAt < oldest)
        expired.push(this.shift(subscriptionUuid, queue));
      if (queue.length > 0 && mayStart(subscriptionUuid)) return this.shift(subscriptionUuid, queue);
    }
    return undefined;
  }

  /** Takes out every row of a subscription (it was disabled: its rows are failed already). */
  dropSubscription(subscriptionUuid: string): T[] {
    const queue = this.bySubscription.get(subscriptionUuid) ?? [];
    this.bySubscription.delete(subscriptionUuid);
    this.total -= queue.length;
    return queue.map((waiting) => waiting.delivery);
  }

  /** Takes out every row (at shutdown, to give them back to the database). */
  drain(): T[] {
    const all = [...this.bySubscription.values()].flat().map((waiting) => waiting.delivery);
    this.bySubscription.clear();
    this.total = 0;
    return all;
  }

  private shift(subscriptionUuid: string, queue: Waiting<T>[]): T {
    const waiting = queue.shift() as Waiting<T>;
    if (queue.length === 0) this.bySubscription.delete(subscriptionUuid);
    this.total -= 1;
    return waiting.delivery;
  }
}
