import { runWithRequestId } from '@cpc/logging';

/** One call of a group: its item, and how to answer it. */
export interface GroupedCall<TItem, TResult> {
  item: TItem;
  resolve(result: TResult): void;
  reject(error: unknown): void;
}

/** A call waiting for its group, remembering whether it was answered. */
class QueuedCall<TItem, TResult> implements GroupedCall<TItem, TResult> {
  answered = false;

  constructor(
    readonly item: TItem,
    private readonly settleResolved: (result: TResult) => void,
    private readonly settleRejected: (error: unknown) => void,
  ) {}

  resolve(result: TResult): void {
    this.answered = true;
    this.settleResolved(result);
  }

  reject(error: unknown): void {
    this.answered = true;
    this.settleRejected(error);
  }
}

export interface GroupingLimits {
  /** Groups being run at once. */
  maxInFlight: number;
  /** Largest group. */
  maxGroup: number;
}

/**
 * Calls that share one round trip (a statement, a request). A call goes out at once while fewer than `maxInFlight`
 * groups are running, so a lone call never waits; calls arriving meanwhile go together into the next group. On this
 * kind of machine a round trip's socket writes and wake-ups cost more than the work it carries, so under load many
 * calls sharing one is most of the saving. `run` answers each call of its group; a call it leaves unanswered gets the
 * error it throws, or fails when it returns.
 */
export class GroupedCalls<TItem, TResult> {
  private queued: QueuedCall<TItem, TResult>[] = [];
  private inFlight = 0;

  constructor(
    private readonly run: (group: GroupedCall<TItem, TResult>[]) => Promise<void>,
    private readonly limits: GroupingLimits,
  ) {}

  call(item: TItem): Promise<TResult> {
    return new Promise<TResult>((resolve, reject) => {
      this.queued.push(new QueuedCall(item, resolve, reject));
      this.runQueued();
    });
  }

  private runQueued(): void {
    if (this.inFlight >= this.limits.maxInFlight || this.queued.length === 0) return;
    const group = this.queued.splice(0, this.limits.maxGroup);
    this.inFlight += 1;
    // A request id of its own: the group serves several requests, not the one whose call happened to start it.
    void runWithRequestId(undefined, () => this.runGroup(group)).finally(() => {
      this.inFlight -= 1;
      this.runQueued();
    });
  }

  private async runGroup(group: QueuedCall<TItem, TResult>[]): Promise<void> {
    let failure: unknown;
    try {
      await this.run(group);
    } catch (error) {
      failure = error;
    }
    // Built only when needed: an error's stack trace would cost more than the whole call.
    for (const call of group) {
      if (call.answered) continue;
      failure ??= new Error('the group ended without an answer for this call');
      call.reject(failure);
    }
  }
}
