import { ErrorCode } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super(ErrorCode.RateLimited, 'too many requests, retry later');
  }
}
