import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** Gives back the place an admitted handshake held; calling it again does nothing. */
export type HandshakeRelease = () => void;

/** An upgrade waiting for a place among the handshakes in their check. */
export interface WaitingHandshake {
  /** The release function once the upgrade may be checked, or 503 when it waited too long or the instance stops. */
  readonly admitted: Promise<HandshakeRelease | 503>;
  /** Takes the upgrade out of the queue (its socket closed); does nothing once it was admitted or refused. */
  abandon(): void;
}

interface Waiter {
  address: string;
  deadline: number;
  settle: (outcome: HandshakeRelease | 503) => void;
  settled: boolean;
}

/**
 * Caps the upgrades whose credentials are being checked at once, per client address and in total. An upgrade beyond
 * the total cap waits its turn in a bounded first-come queue (OCPP_MAX_WAITING_HANDSHAKES, each for at most
 * OCPP_HANDSHAKE_WAIT_MS) instead of being refused: a gateway's whole fleet coming back after a restart is taken in
 * as fast as the checks go, without a refused attempt for each charge point to repeat. Beyond the queue, or once the
 * wait is over, the answer is 503. An address's upgrades, in their check or waiting, never number more than its cap
 * (429 at once), so a flood from a few addresses fills neither the checks nor the queue.
 */
@Injectable()
export class ConcurrentHandshakesLimiter implements OnModuleDestroy {
  private readonly perAddress = new Map<string, number>();
  private total = 0;
  /** First come, first admitted; abandoned and settled entries are skipped when they reach the front. */
  private readonly queue: Waiter[] = [];
  private queueHead = 0;
  private waitingCount = 0;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(@Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig) {}

  /** The release function, a place in the queue, or the status to refuse the upgrade with at once. */
  admit(address: string): HandshakeRelease | WaitingHandshake | 429 | 503 {
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (fromAddress >= this.config.maxConcurrentHandshakesPerAddress) return 429;
    if (this.total < this.config.maxConcurrentHandshakes && this.waitingCount === 0) {
      this.perAddress.set(address, fromAddress + 1);
      return this.take(address);
    }
    if (this.waitingCount >= this.config.maxWaitingHandshakes) return 503;
    this.perAddress.set(address, fromAddress + 1);
    const waiting = this.enqueue(address);
    if (this.total < this.config.maxConcurrentHandshakes) this.admitWaiting();
    return waiting;
  }

  /** Handshakes in their check (for tests and metrics). */
  get inProgress(): number {
    return this.total;
  }

  /** Upgrades waiting for a place (for tests and metrics). */
  get waiting(): number {
    return this.waitingCount;
  }

  /** The instance stops: every waiting upgrade is answered 503 now rather than at the end of its wait. */
  refuseWaiting(): void {
    for (let index = this.queueHead; index < this.queue.length; index++) this.refuse(this.queue[index]);
    this.compact();
  }

  onModuleDestroy(): void {
    this.refuseWaiting();
  }

  /** One more handshake in its check; the address was counted already. */
  private take(address: string): HandshakeRelease {
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      this.forget(address);
      this.admitWaiting();
    };
  }

  private enqueue(address: string): WaitingHandshake {
    let settle!: (outcome: HandshakeRelease | 503) => void;
    const admitted = new Promise<HandshakeRelease | 503>((resolve) => (settle = resolve));
    const waiter: Waiter = {
      address,
      deadline: Date.now() + this.config.handshakeWaitMs,
      settle,
      settled: false,
    };
    this.queue.push(waiter);
    this.waitingCount += 1;
    this.scheduleExpiry();
    return {
      admitted,
      abandon: () => {
        if (waiter.settled) return;
        this.leave(waiter);
        this.forget(waiter.address);
      },
    };
  }

  /** Hands the places given back to the waiting upgrades, first come first, refusing those whose wait is over. */
  private admitWaiting(): void {
    const now = Date.now();
    while (this.total < this.config.maxConcurrentHandshakes && this.queueHead < this.queue.length) {
      const waiter = this.queue[this.queueHead++];
      if (waiter.settled) continue;
      if (waiter.deadline <= now) {
        this.refuse(waiter);
        continue;
      }
      this.leave(waiter);
      waiter.settle(this.take(waiter.address));
    }
    this.compact();
  }

  private refuse(waiter: Waiter): void {
    if (waiter.settled) return;
    this.leave(waiter);
    this.forget(waiter.address);
    waiter.settle(503);
  }

  private leave(waiter: Waiter): void {
    waiter.settled = true;
    this.waitingCount -= 1;
  }

  private forget(address: string): void {
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
  }

  /** Drops the settled entries in front, so the queue's array does not grow with every upgrade ever queued. */
  private compact(): void {
    while (this.queueHead < this.queue.length && this.queue[this.queueHead].settled) this.queueHead++;
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    } else if (this.queueHead > 1024 && this.queueHead * 2 > this.queue.length) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    if (this.waitingCount === 0 && this.expiryTimer) {
      clearTimeout(this.expiryTimer);
      this.expiryTimer = undefined;
    }
  }

  /** One timer for the queue, set for the front entry's deadline (the earliest, as every wait is as long). */
  private scheduleExpiry(): void {
    if (this.expiryTimer || this.waitingCount === 0) return;
    let front: Waiter | undefined;
    for (let index = this.queueHead; index < this.queue.length && !front; index++)
      if (!this.queue[index].settled) front = this.queue[index];
    if (!front) return;
    this.expiryTimer = setTimeout(
      () => {
        this.expiryTimer = undefined;
        const now = Date.now();
        for (let index = this.queueHead; index < this.queue.length; index++) {
          const waiter = this.queue[index];
          if (waiter.settled) continue;
          if (waiter.deadline > now) break;
          this.refuse(waiter);
        }
        this.compact();
        this.scheduleExpiry();
      },
      Math.max(0, front.deadline - Date.now()),
    );
    this.expiryTimer.unref();
  }
}
