import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { describeError } from '@cpc/errors';
import { deleteExpiredKeys } from './idempotency-keys.js';

const SWEEP_INTERVAL_MS = 3600_000;

/** Removes expired idempotency keys hourly, so the table holds about one day of keys. */
@Injectable()
export class IdempotencyKeySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyKeySweeper.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      deleteExpiredKeys(this.dataSource.manager).catch((error: unknown) => {
        this.logger.warn(`expired idempotency keys not removed: ${describeError(error)}`);
      });
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
