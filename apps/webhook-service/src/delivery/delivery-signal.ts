import { Injectable } from '@nestjs/common';

/**
 * Wakes this replica's delivery loop when rows were just written or answered here, instead of waiting for its next
 * poll. A wake while the loop is busy (claiming, pausing) is kept: its next wait returns at once.
 */
@Injectable()
export class DeliverySignal {
  private waiting: (() => void) | undefined;
  private woken = false;

  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting();
    else this.woken = true;
  }

  /** Resolves on wake() (at once when one came since the last wait) or after `ms`, whichever comes first. */
  wait(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
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
