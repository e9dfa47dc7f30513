import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Principal } from '@cpc/contracts';
import { RateLimitedError } from './rate-limited.error.js';
import { SubjectRequestBudgets } from './subject-request-budgets.js';

/** Last of the global guards: each authenticated subject gets its own request budget per window. */
@Injectable()
export class SubjectRateLimitGuard implements CanActivate {
  constructor(private readonly budgets: SubjectRequestBudgets) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user;
    if (!principal) return true;
    const decision = await this.budgets.hit(principal);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
    return true;
  }
}
