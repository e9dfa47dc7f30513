import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import { loggableQueryError } from './query-error.js';

/** Lets Nest's own logging (and every `new Logger(context)`) write through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, traceOrContext?: string, context?: string): void {
    const trace = context === undefined ? undefined : traceOrContext;
    this.write('error', message, context ?? traceOrContext, trace);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    context?: string,
    trace?: string,
  ): void {
    const fields: Record<string, unknown> = context ? { context } : {};
    if (trace) fields.trace = trace;
    if (message instanceof Error) {
      // A query error's message may quote a statement's value; the `err` serializer keeps what may be logged.
      const text = loggableQueryError(message) ? 'query failed' : message.message;
      this.logger[level]({ ...fields, err: message }, text);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
