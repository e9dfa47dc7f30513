import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Principal } from '@cpc/contracts';
import { describeError } from '@cpc/errors';
import { API_GATEWAY_CONFIG, type ApiGatewayConfig } from '../api-gateway.config.js';
import { FixedWindowRateLimiter, type RateLimitDecision } from './fixed-window-rate-limiter.js';
import { SharedWindowRateLimiter, type WindowBudgetStore } from './shared-window-rate-limiter.js';

/** The store of the shared budgets (KvWindowBudgetStore, provided by the module). */
export const WINDOW_BUDGET_STORE = Symbol('WINDOW_BUDGET_STORE');

/**
 * API_RATE_LIMIT_PER_SUBJECT per window for all replicas together, counted in the shared store. While the store
 * cannot be used (JetStream away, a lease contended too long) each replica counts alone, for
 * rateLimitStoreRetryMs before it tries the store again: the API keeps serving, with the limit per replica.
 */
@Injectable()
export class SubjectRequestBudgets {
  private readonly logger = new Logger(SubjectRequestBudgets.name);
  private readonly shared: SharedWindowRateLimiter;
  private readonly alone: FixedWindowRateLimiter;
  private storeUnusableUntil = 0;

  constructor(
    @Inject(API_GATEWAY_CONFIG) private readonly config: ApiGatewayConfig,
    @Inject(WINDOW_BUDGET_STORE) store: WindowBudgetStore,
  ) {
    const windowMs = config.rateLimitWindowSeconds * 1000;
    const { rateLimitLeaseShare, rateLimitLeaseAttempts } = config.tuning;
    this.shared = new SharedWindowRateLimiter(store, {
      limit: config.apiRateLimitPerSubject,
      windowMs,
      leaseShare: rateLimitLeaseShare,
      leaseAttempts: rateLimitLeaseAttempts,
    });
    this.alone = new FixedWindowRateLimiter(config.apiRateLimitPerSubject, windowMs);
  }

  async hit(principal: Principal): Promise<RateLimitDecision> {
    const key = `${principal.tenantUuid}:${principal.subject}`;
    if (Date.now() < this.storeUnusableUntil) return this.alone.hit(key);
    try {
      return await this.shared.hit(key);
    } catch (error) {
      if (Date.now() >= this.storeUnusableUntil) {
        this.storeUnusableUntil = Date.now() + this.config.tuning.rateLimitStoreRetryMs;
        this.logger.warn(
          `the shared rate-limit budgets cannot be used, counting in this replica alone for ` +
            `${this.config.tuning.rateLimitStoreRetryMs} ms: ${describeError(error)}`,
        );
      }
      return this.alone.hit(key);
    }
  }
}
