import { Injectable } from '@nestjs/common';
import type { ClaimedCommand } from '../command-row.js';

/**
 * Leases a statement may write into the commands it stores (a creation) or whose lane it frees (a batch of
 * transitions handing the lane's next command over), for this instance's dispatcher to deliver at once.
 */
export interface LeaseTerms {
  owner: string;
  leaseMs: number;
  /** At most this many commands leased by one statement. */
  limit: number;
}

/** The dispatcher, as creations and wakers see it. */
export interface DispatchListener {
  /** Commands may have become due. */
  notified(): void;
  /** A command was stored unleased into this charge point's lane (an open command was there). */
  createdBehind(controllerUuid: string): void;
  /** Undefined while it takes no new deliveries (full, or stopping). */
  leaseTerms(): LeaseTerms | undefined;
  /** A command a committed statement leased to it (LeaseTerms): created so, or handed over at an ending. */
  deliverLeased(command: ClaimedCommand): void;
  /** A charge point opened a connection to a gateway instance (its call subject is served there now). */
  chargePointConnected(controllerUuid: string): void;
  /** This instance's NATS connection is back after losing its server. */
  natsReconnected(): void;
}

/**
 * Between this instance's dispatcher and what feeds it: a wake when commands may have become due (one was created, a
 * charge point connected), so it looks at once instead of at its next poll (other instances find them by polling),
 * the commands a creation or an ending leased to it, which skip the claim, and the moments the way to a charge
 * point changed (it connected again, NATS came back), when a delivery waiting on the old way is asked again.
 */
@Injectable()
export class DispatchSignal {
  private listener: DispatchListener | undefined;

  listen(listener: DispatchListener): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.notified();
  }

  createdBehind(controllerUuid: string): void {
    this.listener?.createdBehind(controllerUuid);
  }

  leaseTerms(): LeaseTerms | undefined {
    return this.listener?.leaseTerms();
  }

  deliverLeased(command: ClaimedCommand): void {
    this.listener?.deliverLeased(command);
  }

  chargePointConnected(controllerUuid: string): void {
    this.listener?.chargePointConnected(controllerUuid);
  }

  natsReconnected(): void {
    this.listener?.natsReconnected();
  }
}
