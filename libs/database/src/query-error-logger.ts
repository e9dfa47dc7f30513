import { Logger as NestLogger } from '@nestjs/common';
import { loggableQueryError } from '@cpc/logging';
import type { Logger as TypeOrmLogger } from 'typeorm';

/**
 * TypeORM's logger for every service DataSource. TypeORM's own console loggers print a failed statement with its
 * parameters (password hashes, tokens' hashes) next to pino, outside its redaction; this one writes through Nest's
 * logger (pino) and names a failed statement by its SQL text and error code only. Successful statements are not logged.
 */
export class QueryErrorLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {}

  /** TypeORM hands over the driver's error (whose message may quote a value) and the parameters: both stay out. */
  logQueryError(error: string | Error, query: string): void {
    const code = loggableQueryError(error)?.code ?? 'unknown';
    this.logger.warn(`query failed (SQLSTATE ${code}): ${query}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`query took ${time} ms: ${query}`);
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.debug(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
