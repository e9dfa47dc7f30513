import { Injectable } from '@nestjs/common';
import type { AckFloorName } from './ack-floors.js';

/** What the loop's floors are to be read for: an event whose acknowledgement went out unconfirmed. */
export type UnconfirmedListener = (floor: AckFloorName, streamSequence: number) => void;

/**
 * Wakes this replica's delivery loop when rows were just written or let through here, instead of waiting for its next
 * poll. A wake while the loop is busy (claiming) is kept for its next wait: what it announces may have come after the
 * claim looked.
 */
@Injectable()
export class DeliverySignal {
  private waiting: (() => void) | undefined;
  private wokenMeanwhile = false;
  /** Rows acknowledged unconfirmed while the loop was busy (the highest event per floor): its next wait reads for them. */
  private readBeforeWaiting = new Map<AckFloorName, number>();
  private acknowledgedListener: (() => void) | undefined;
  private unconfirmedListener: UnconfirmedListener | undefined;

  /**
   * Events whose rows were written are acknowledged: their rows may be claimed once the consumers' ack floors are read
   * again, which the listener (the delivery loop's AckFloors) does at once; without one, the loop is woken.
   */
  rowsAcknowledged(): void {
    if (this.acknowledgedListener) this.acknowledgedListener();
    else this.wake();
  }

  /**
   * The rows of the events up to `streamSequence` on `floor`'s consumer were written and acknowledged a moment ago,
   * without the server's confirmation (the loop was busy when they were written). A waiting loop has the floors read
   * until they reach it; a busy one is woken, and its next wait does so first: its claims may have taken a reading from
   * before the acknowledgement, young enough to be used again, and it is not to wait for its poll with their rows held
   * back. Without a listener the loop is woken.
   */
  rowsAcknowledgedUnconfirmed(floor: AckFloorName, streamSequence: number): void {
    if (this.waiting && this.unconfirmedListener) {
      this.unconfirmedListener(floor, streamSequence);
      return;
    }
    this.readBeforeWaiting.set(floor, Math.max(this.readBeforeWaiting.get(floor) ?? 0, streamSequence));
    this.wake();
  }

  /** Whether the loop waits for a wake now (its last claim found nothing, or it has not started). */
  get loopWaiting(): boolean {
    return this.waiting !== undefined;
  }

  onRowsAcknowledged(listener: () => void): void {
    this.acknowledgedListener = listener;
  }

  onRowsAcknowledgedUnconfirmed(listener: UnconfirmedListener): void {
    this.unconfirmedListener = listener;
  }

  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting();
    else this.wokenMeanwhile = true;
  }

  /**
   * Resolves on wake() (or at once after one that found nobody waiting) or after `ms`, whichever comes first. Starts
   * the readings rowsAcknowledgedUnconfirmed() asked for, whose advance wakes it.
   */
  wait(ms: number): Promise<void> {
    if (this.wokenMeanwhile) {
      this.wokenMeanwhile = false;
      return Promise.resolve();
    }
    for (const [floor, streamSequence] of this.readBeforeWaiting)
      this.unconfirmedListener?.(floor, streamSequence);
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
