import { ErrorCode } from '@cpc/contracts';

/** The one mapping from error codes to HTTP statuses. */
const HTTP_STATUS_BY_ERROR_CODE: Record<ErrorCode, number> = {
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.InvalidCredentials]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.ValidationFailed]: 422,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.Internal]: 500,
  [ErrorCode.ServiceUnavailable]: 503,
};

export function httpStatusForErrorCode(code: ErrorCode): number {
  return HTTP_STATUS_BY_ERROR_CODE[code];
}
