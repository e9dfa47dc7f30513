import { Inject, Injectable } from '@nestjs/common';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

/** Gives back the place an admitted handshake held; calling it again does nothing. */
export type HandshakeRelease = () => void;

/**
 * Caps the upgrades whose credentials are being checked at once, per client address and in total. Beyond either
 * cap an upgrade is refused at once (429 for the address, 503 for the instance) instead of waiting, so a flood of
 * handshakes queues no work and costs each attempt a map look-up.
 */
@Injectable()
export class ConcurrentHandshakesLimiter {
  private readonly perAddress = new Map<string, number>();
  private total = 0;

  constructor(@Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig) {}

  /** The release function, or the status to refuse the upgrade with. */
  admit(address: string): HandshakeRelease | 429 | 503 {
    if (this.total >= this.config.maxConcurrentHandshakes) return 503;
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (fromAddress >= this.config.maxConcurrentHandshakesPerAddress) return 429;
    this.total += 1;
    this.perAddress.set(address, fromAddress + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    };
  }

  /** Handshakes in progress (for tests and metrics). */
  get inProgress(): number {
    return this.total;
  }
}
