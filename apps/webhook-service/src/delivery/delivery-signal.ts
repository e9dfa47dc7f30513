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
