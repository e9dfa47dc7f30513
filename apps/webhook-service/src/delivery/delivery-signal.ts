import { Injectable } from '@nestjs/common';
import type { AckFloorName } from './ack-floors.js';

/** Has the loop's floors read until `floor` reaches `streamSequence` (AckFloors.readUntil). */
export type AcknowledgedRowsListener = (floor: AckFloorName, streamSequence: number) => void;

/**
 * Wakes this replica's delivery loop when rows were just written or let through here, instead of waiting for its next
 * poll. A wake while the loop is busy (claiming) is kept for its next wait: what it announces may have come after the
 * claim looked.
 */
@Injectable()
export class DeliverySignal {
  private waiting: (() => void) | undefined;
  private wokenMeanwhile = false;
  /** Rows acknowledged while the loop was busy (the highest event per floor): its next wait reads for them. */
  private readBeforeWaiting = new Map<AckFloorName, number>();
  private acknowledgedListener: AcknowledgedRowsListener | undefined;

  /**
   * The rows of the events up to `streamSequence` on `floor`'s consumer were written and acknowledged (confirmed by the
   * server when the loop waited as they were written, otherwise sent a moment ago). A waiting loop has the floors read
   * until they reach it, whose advance wakes it; a busy one is woken, and its next wait does so first: its claims may
   * have taken a reading from before the acknowledgement, young enough to be used again, and it is not to wait for its
   * poll with their rows held back. Without a listener the loop is woken.
   */
  rowsAcknowledged(floor: AckFloorName, streamSequence: number): void {
    if (this.waiting && this.acknowledgedListener) {
      this.acknowledgedListener(floor, streamSequence);
      return;
    }
    this.readBeforeWaiting.set(floor, Math.max(this.readBeforeWaiting.get(floor) ?? 0, streamSequence));
    this.wake();
  }

  /** Whether the loop waits for a wake now (its last claim found nothing, or it has not started). */
  get loopWaiting(): boolean {
    return this.waiting !== undefined;
  }

  onRowsAcknowledged(listener: AcknowledgedRowsListener): void {
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
   * the readings rowsAcknowledged() asked for, whose advance wakes it.
   */
  wait(ms: number): Promise<void> {
    if (this.wokenMeanwhile) {
      this.wokenMeanwhile = false;
      return Promise.resolve();
    }
    for (const [floor, streamSequence] of this.readBeforeWaiting)
      this.acknowledgedListener?.(floor, streamSequence);
    this.readBeforeWaiting.clear();
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
