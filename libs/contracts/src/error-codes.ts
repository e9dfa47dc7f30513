/**
 * Error codes that travel between services and that the api-gateway maps to HTTP statuses in one place
 * (`@cpc/errors` httpStatusForErrorCode). Services never speak HTTP; they answer with one of these.
 */
export const ErrorCode = {
  InvalidRequest: 'invalid_request',
  ValidationFailed: 'validation_failed',
  Unauthorized: 'unauthorized',
  InvalidCredentials: 'invalid_credentials',
  Forbidden: 'forbidden',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  PayloadTooLarge: 'payload_too_large',
  UnsupportedMediaType: 'unsupported_media_type',
  RateLimited: 'rate_limited',
  ServiceUnavailable: 'service_unavailable',
  Internal: 'internal',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** One item of the spec's validation-error body: `{ errors: [ { errorKey, message, parameter } ] }`. */
export interface ValidationIssue {
  errorKey: string;
  message: string;
  parameter: string;
}

/** What a service answers instead of data when a request fails. */
export interface RpcErrorPayload {
  code: ErrorCode;
  message: string;
  issues?: ValidationIssue[];
  /** With rate_limited: seconds until the refusing window ends (the HTTP answer's Retry-After). */
  retryAfterSeconds?: number;
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RpcErrorPayload>;
  return (
    typeof candidate.code === 'string' &&
    (Object.values(ErrorCode) as string[]).includes(candidate.code) &&
    typeof candidate.message === 'string'
  );
}
