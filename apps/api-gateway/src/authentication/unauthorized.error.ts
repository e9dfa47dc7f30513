import { ErrorCode } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';

/** A missing or unusable bearer token; the response carries `WWW-Authenticate: Bearer`. */
export class UnauthorizedError extends DomainError {
  constructor(message: string) {
    super(ErrorCode.Unauthorized, message);
  }
}
