import { ErrorCode } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';

/** A missing or unusable bearer token; the response carries `WWW-Authenticate: Bearer`. */
export class UnauthorizedError extends DomainError {
  constructor(
    message: string,
    /** False when the request carried no bearer token: RFC 6750 §3.1 then wants a challenge without error code. */
    readonly tokenPresented = true,
  ) {
    super(ErrorCode.Unauthorized, message);
  }
}
