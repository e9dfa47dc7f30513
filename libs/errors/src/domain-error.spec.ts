import { ErrorCode } from '@cpc/contracts';
import { DomainError, RateLimitedError } from './domain-error.js';

describe('DomainError payloads', () => {
  it('carries Retry-After of a rate limit across the wire', () => {
    const payload = new RateLimitedError(42).toPayload();
    expect(payload).toEqual({
      code: ErrorCode.RateLimited,
      message: 'too many requests, retry later',
      retryAfterSeconds: 42,
    });
    const received = DomainError.fromPayload(JSON.parse(JSON.stringify(payload)));
    expect(received).toBeInstanceOf(RateLimitedError);
    expect((received as RateLimitedError).retryAfterSeconds).toBe(42);
  });

  it('rebuilds other errors, and a rate limit without a time, as plain domain errors', () => {
    const notFound = DomainError.fromPayload({ code: ErrorCode.NotFound, message: 'tenant x not found' });
    expect(notFound).not.toBeInstanceOf(RateLimitedError);
    expect(notFound.toPayload()).toEqual({ code: ErrorCode.NotFound, message: 'tenant x not found' });
    expect(DomainError.fromPayload({ code: ErrorCode.RateLimited, message: 'slow down' })).not.toBeInstanceOf(
      RateLimitedError,
    );
  });
});
