import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';

interface FailureWindow {
  count: number;
  startedAt: number;
}

/**
 * Counts refused handshakes per charge point identity and per remote address in fixed windows. Once either has
 * used up its allowance, further attempts are refused before any service is asked, which stops password guessing
 * against one identity and credential stuffing from one address. Kept per instance: with N instances behind a load
 * balancer an attacker gets at most N times the allowance, which is still a hard limit.
 */
@Injectable()
export class HandshakeFailureRateLimiter implements OnModuleDestroy {
  private readonly windows = new Map<string, FailureWindow>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(@Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig) {
    this.sweeper = setInterval(() => this.sweep(), config.handshakeFailureWindowMs);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  isBlocked(identityKey: string, address: string): boolean {
    return (
      this.used(`identity:${identityKey}`) >= this.config.handshakeMaxFailures ||
      this.used(`address:${address}`) >= this.config.handshakeMaxFailures
    );
  }

  recordFailure(identityKey: string, address: string): void {
    this.increment(`identity:${identityKey}`);
    this.increment(`address:${address}`);
  }

  private used(key: string): number {
    const window = this.windows.get(key);
    return window && Date.now() - window.startedAt < this.config.handshakeFailureWindowMs ? window.count : 0;
  }

  private increment(key: string): void {
    const now = Date.now();
    const window = this.windows.get(key);
    if (window && now - window.startedAt < this.config.handshakeFailureWindowMs) window.count += 1;
    else this.windows.set(key, { count: 1, startedAt: now });
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= this.config.handshakeFailureWindowMs) this.windows.delete(key);
    }
  }
}
