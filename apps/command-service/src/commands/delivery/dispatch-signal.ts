import { Injectable } from '@nestjs/common';
import type { ClaimedCommand } from '../command-row.js';

/** Leases a creation may write into the commands it stores, for this instance's dispatcher to deliver at once. */
export interface CreationLeases {
  owner: string;
  leaseMs: number;
  /** At most this many commands leased by one creation statement. */
  limit: number;
}

/** The dispatcher, as creations and wakers see it. */
export interface DispatchListener {
  /** Commands may have become due. */
  notified(): void;
  /** Undefined while it takes no new deliveries (full, or stopping). */
  leasesForCreation(): CreationLeases | undefined;
  /** A command stored already leased to it (CreationLeases), committed. */
  deliverCreated(command: ClaimedCommand): void;
  /** A charge point opened a connection to a gateway instance (its call subject is served there now). */
  chargePointConnected(controllerUuid: string): void;
  /** This instance's NATS connection is back after losing its server. */
  natsReconnected(): void;
}

/**
 * Between this instance's dispatcher and what feeds it: a wake when commands may have become due (one was created, a
 * charge point connected), so it looks at once instead of at its next poll (other instances find them by polling),
 * the commands a creation stored already leased to it, which skip the claim, and the moments the way to a charge
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

  leasesForCreation(): CreationLeases | undefined {
    return this.listener?.leasesForCreation();
  }

  deliverCreated(command: ClaimedCommand): void {
    this.listener?.deliverCreated(command);
  }

  chargePointConnected(controllerUuid: string): void {
    this.listener?.chargePointConnected(controllerUuid);
  }

  natsReconnected(): void {
    this.listener?.natsReconnected();
  }
}
