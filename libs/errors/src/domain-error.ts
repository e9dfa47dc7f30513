import { ErrorCode, type RpcErrorPayload, type ValidationIssue } from '@cpc/contracts';

/**
 * A failure the caller can act on. Services throw these; the RPC filter turns them into RpcErrorPayloads and the
 * api-gateway turns those into the spec's HTTP bodies. Anything that is not a DomainError is an internal error.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ValidationIssue[],
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toPayload(): RpcErrorPayload {
    return this.issues
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message };
  }

  static fromPayload(payload: RpcErrorPayload): DomainError {
    if (payload.code === ErrorCode.RateLimited && typeof payload.retryAfterSeconds === 'number')
      return new RateLimitedError(payload.retryAfterSeconds, payload.message);
    return new DomainError(payload.code, payload.message, payload.issues);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super(ErrorCode.NotFound, `${what} not found`);
  }
}

export class ValidationFailedError extends DomainError {
  constructor(issues: ValidationIssue[], message = 'request validation failed') {
    super(ErrorCode.ValidationFailed, message, issues);
  }

  static single(parameter: string, errorKey: string, message: string): ValidationFailedError {
    return new ValidationFailedError([{ parameter, errorKey, message }]);
  }
}

/**
 * 400 with one issue per problem: the token endpoint's answer to bad input (OAuth 2.0 and the spec's token table say
 * 400 there, where every other route says 422).
 */
export class InvalidTokenRequestError extends DomainError {
  constructor(issues: ValidationIssue[]) {
    super(ErrorCode.InvalidRequest, 'invalid token request', issues);
  }
}

export class ServiceUnavailableError extends DomainError {
  constructor(message = 'a backing service is unavailable, try again later') {
    super(ErrorCode.ServiceUnavailable, message);
  }
}

/** Too many requests; `retryAfterSeconds` travels with the error across NATS and becomes the HTTP Retry-After. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message = 'too many requests, retry later',
  ) {
    super(ErrorCode.RateLimited, message);
  }

  override toPayload(): RpcErrorPayload {
    return { code: this.code, message: this.message, retryAfterSeconds: this.retryAfterSeconds };
  }
}

/** The caller of a request stopped waiting before the work could start (REQUEST_TIMEOUT_HEADER): nothing was done. */
export class RequestDeadlinePassedError extends ServiceUnavailableError {
  constructor() {
    super('the request waited past its deadline and was not served, try again later');
  }
}
