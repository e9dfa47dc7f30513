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
  private acknowledgedListener: (() => void) | undefined;

  /**
   * Events whose rows were written are acknowledged: their rows may be claimed once the consumers' ack floors are read
   * again, which the listener (the delivery loop's AckFloors) does at once; without one, the loop is woken.
   */
  rowsAcknowledged(): void {
    if (this.acknowledgedListener) this.acknowledgedListener();
    else this.wake();
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

  /** Resolves on wake() (or at once after one that found nobody waiting) or after `ms`, whichever comes first. */
  wait(ms: number): Promise<void> {
    if (this.wokenMeanwhile) {
      this.wokenMeanwhile = false;
      return Promise.resolve();
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
