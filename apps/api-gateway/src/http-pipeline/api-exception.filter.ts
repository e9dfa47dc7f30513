import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { ErrorCode } from '@cpc/contracts';
import { DomainError, httpStatusForErrorCode } from '@cpc/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../authentication/unauthorized.error.js';
import { ClientAuthenticationFailedError } from '../oauth/client-authentication-failed.error.js';
import { RateLimitedError } from '../rate-limiting/rate-limited.error.js';
import { RouteMethods } from './route-methods.js';

interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/** Messages for the failures Fastify raises before a route handler runs (body parsing). */
const FASTIFY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported content type; send application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request body too large',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'empty body with content type application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'content length does not match the body',
};

const BEARER_CHALLENGE = 'Bearer realm="charging-platform-core"';

/**
 * The one place where failures become HTTP responses in the spec's shapes: `{error}` for single errors,
 * `{errors:[{errorKey,message,parameter}]}` for validation. Nothing internal (stack, SQL) reaches the client.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  constructor(private readonly routeMethods: RouteMethods) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const response = this.describe(exception, request);
    if (response.status >= 500) {
      this.logger.error(
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
      );
    }
    void reply.status(response.status).headers(response.headers).send(response.body);
  }

  private describe(exception: unknown, request: FastifyRequest): ErrorResponse {
    if (exception instanceof DomainError) return this.fromDomainError(exception, request);
    if (exception instanceof NotFoundException) return this.routeNotFound(request);
    const status =
      exception instanceof HttpException
        ? exception.getStatus()
        : (exception as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const code = (exception as { code?: string }).code;
      const message =
        (code && FASTIFY_ERRORS[code]) ?? (exception instanceof Error ? exception.message : 'bad request');
      return { status, body: { error: message }, headers: {} };
    }
    return { status: 500, body: { error: 'internal error' }, headers: {} };
  }

  private fromDomainError(error: DomainError, request: FastifyRequest): ErrorResponse {
    const status = httpStatusForErrorCode(error.code);
    const headers: Record<string, string> = {};
    if (error instanceof ClientAuthenticationFailedError) {
      headers['www-authenticate'] = error.challenge;
    } else if (error.code === ErrorCode.Unauthorized) {
      const tokenPresented = !(error instanceof UnauthorizedError) || error.tokenPresented;
      headers['www-authenticate'] = tokenPresented
        ? `${BEARER_CHALLENGE}, error="invalid_token"`
        : BEARER_CHALLENGE;
    }
    if (error instanceof RateLimitedError) headers['retry-after'] = String(error.retryAfterSeconds);
    if (status >= 500) this.logger.warn(`${request.method} ${request.url}: ${error.message}`);
    const body = error.issues ? { errors: error.issues } : { error: error.message };
    return { status, body, headers };
  }

  private routeNotFound(request: FastifyRequest): ErrorResponse {
    const allowed = this.routeMethods.allowedFor(request.url);
    // A route of this very method that found nothing (a missing file under /console/assets) is a 404, not a 405.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return {
        status: 405,
        body: { error: `method ${request.method} not allowed` },
        headers: { allow: allowed.join(', ') },
      };
    }
    return { status: 404, body: { error: 'not found' }, headers: {} };
  }
}
