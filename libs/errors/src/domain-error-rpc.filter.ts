import { Catch, Logger, type RpcExceptionFilter } from '@nestjs/common';
import { ErrorCode, type RpcErrorPayload } from '@cpc/contracts';
import { describeErrorForLog } from '@cpc/logging';
import { type Observable, throwError } from 'rxjs';
import { DomainError } from './domain-error.js';

/**
 * Installed on every service's NATS server: a DomainError travels to the caller as its payload; anything else is
 * logged here and travels as an opaque internal error, so no stack trace or SQL leaks across the wire.
 */
@Catch()
export class DomainErrorRpcFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrors');

  catch(exception: unknown): Observable<RpcErrorPayload> {
    if (exception instanceof DomainError) return throwError(() => exception.toPayload());
    this.logger.error(describeErrorForLog(exception));
    return throwError(() => ({ code: ErrorCode.Internal, message: 'internal error' }));
  }
}
