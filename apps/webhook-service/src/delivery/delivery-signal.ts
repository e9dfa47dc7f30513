import { Injectable } from '@nestjs/common';

/** Wakes this replica's delivery loop when rows were just written here, instead of waiting for its next poll. */
@Injectable()
export class DeliverySignal {
  private waiting: (() => void) | undefined;

  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  /** Resolves on wake() or after `ms`, whichever comes first. */
  wait(ms: number): Promise<void> {
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
