import { type DestinationStream, pino, type Logger } from 'pino';
import { loggableQueryError } from './query-error.js';
import { currentRequestId } from './request-context.js';

/** Paths that may hold secrets; pino replaces their values before a line is written. */
const REDACTED_PATHS = [
  'password',
  '*.password',
  'private_key',
  '*.private_key',
  'refresh_token',
  '*.refresh_token',
  'refreshToken',
  '*.refreshToken',
  'access_token',
  '*.access_token',
  'ocpp_password',
  '*.ocpp_password',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
];

/** A logged error object: a failed SQL statement keeps only its text and error code (see loggableQueryError). */
const serializeError = (error: unknown): unknown =>
  loggableQueryError(error) ?? pino.stdSerializers.err(error as Error);

/**
 * JSON logs with the service name and, inside a request, its request id on every line. Command-line tools log to
 * stderr (`toStderr`) because their stdout is their result; tests may pass a `destination` of their own.
 */
export function createLogger(
  service: string,
  level: string,
  toStderr = false,
  destination: DestinationStream = pino.destination(toStderr ? 2 : 1),
): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError, error: serializeError },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    destination,
  );
}
