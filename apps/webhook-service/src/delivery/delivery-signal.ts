import { Injectable } from '@nestjs/common';

/**
 * Wakes this replica's delivery loop when rows were just written or let through here, instead of waiting for its next
 * poll. A wake while the loop is busy (claiming) is kept for its next wait: what it announces may have come after the
 * claim looked.
 */
@Injectable()
export class DeliverySignal {
  private waiting: (() => void) | undefined;
  private wokenMeanwhile = false;
  /** Rows were acknowledged, unconfirmed, while the loop was busy: its next wait starts a reading of the floors. */
  private readBeforeWaiting = false;
  private acknowledgedListener: (() => void) | undefined;

  /**
   * Events whose rows were written are acknowledged: their rows may be claimed once the consumers' ack floors are read
   * again, which the listener (the delivery loop's AckFloors) does at once; without one, the loop is woken.
   */
  rowsAcknowledged(): void {
    if (this.acknowledgedListener) this.acknowledgedListener();
    else this.wake();
  }

  /**
   * Events whose rows were written were acknowledged a moment ago, without the server's confirmation (the loop was
   * busy when they were written). A waiting loop is treated as by rowsAcknowledged(); a busy one is woken, and its
   * next wait starts a reading first: its claims may have taken a reading from before the acknowledgement, young
   * enough to be used again, and it is not to wait for its poll with their rows held back.
   */
  rowsAcknowledgedUnconfirmed(): void {
    if (this.waiting) {
      this.rowsAcknowledged();
      return;
    }
    this.readBeforeWaiting = true;
    this.wake();
  }

  /** Whether the loop waits for a wake now (its last claim found nothing, or it has not started). */
  get loopWaiting(): boolean {
    return this.waiting !== undefined;
  }

  onRowsAcknowledged(listener: () => void): void {
    this.acknowledgedListener = listener;
  }

  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting();
    else this.wokenMeanwhile = true;
  }

  /**
   * Resolves on wake() (or at once after one that found nobody waiting) or after `ms`, whichever comes first. Starts
   * the reading rowsAcknowledgedUnconfirmed() asked for, whose advance wakes it.
   */
  wait(ms: number): Promise<void> {
    if (this.wokenMeanwhile) {
      this.wokenMeanwhile = false;
      return Promise.resolve();
    }
    if (this.readBeforeWaiting) {
      this.readBeforeWaiting = false;
      this.acknowledgedListener?.();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        resolve();
      }, ms);
      this.waiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
