import { Inject, Injectable } from '@nestjs/common';
import { API_GATEWAY_CONFIG, type ApiGatewayConfig } from '../api-gateway.config.js';
import { FixedWindowRateLimiter } from '../rate-limiting/fixed-window-rate-limiter.js';
import { RateLimitedError } from '../rate-limiting/rate-limited.error.js';

/**
 * Password guessing is slowed per client address (every request) and per account (tenant + username, failed attempts
 * only, so a client that logs in correctly is never locked out by its own successes).
 */
const accountKey = (tenant: string, username: string) => `${tenant}\u0000${username.toLowerCase()}`;

@Injectable()
export class TokenRateLimits {
  private readonly perAddress: FixedWindowRateLimiter;
  private readonly perAccount: FixedWindowRateLimiter;

  constructor(@Inject(API_GATEWAY_CONFIG) config: ApiGatewayConfig) {
    const windowMs = config.rateLimitWindowSeconds * 1000;
    this.perAddress = new FixedWindowRateLimiter(config.tokenRateLimitPerAddress, windowMs);
    this.perAccount = new FixedWindowRateLimiter(config.tokenRateLimitPerAccount, windowMs);
  }

  checkAddress(address: string): void {
    const decision = this.perAddress.hit(address);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  }

  checkAccount(tenant: string, username: string): void {
    const decision = this.perAccount.exhausted(accountKey(tenant, username));
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  }

  recordFailedAttempt(tenant: string, username: string): void {
    this.perAccount.hit(accountKey(tenant, username));
  }
}
