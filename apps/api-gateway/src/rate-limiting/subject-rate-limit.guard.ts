import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@cpc/contracts';
import { API_GATEWAY_CONFIG, type ApiGatewayConfig } from '../api-gateway.config.js';
import { FixedWindowRateLimiter } from './fixed-window-rate-limiter.js';
import { RateLimitedError } from './rate-limited.error.js';

/** Last of the global guards: each authenticated subject gets its own request budget per window. */
@Injectable()
export class SubjectRateLimitGuard implements CanActivate {
  private readonly limiter: FixedWindowRateLimiter;

  constructor(@Inject(API_GATEWAY_CONFIG) config: ApiGatewayConfig) {
    this.limiter = new FixedWindowRateLimiter(
      config.apiRateLimitPerSubject,
      config.rateLimitWindowSeconds * 1000,
    );
  }

  canActivate(context: ExecutionContext): boolean {
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!principal) return true;
    const decision = this.limiter.hit(`${principal.tenantUuid}:${principal.subject}`);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    return true;
  }
}
