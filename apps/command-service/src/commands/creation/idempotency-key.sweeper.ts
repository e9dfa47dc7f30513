import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';
import { describeError } from '@cpc/errors';
import { repeatInBackground } from '@cpc/service-runtime';
import { deleteExpiredKeys } from './idempotency-keys.js';

/** Removes expired idempotency keys hourly (tuning.idempotencyKeySweepIntervalMs), so the table holds about one day of keys. */
@Injectable()
export class IdempotencyKeySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyKeySweeper.name);
  private stopRepeating: (() => void) | undefined;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.stopRepeating = repeatInBackground({
      everyMs: this.config.tuning.idempotencyKeySweepIntervalMs,
      task: () => deleteExpiredKeys(this.dataSource.manager),
      onError: (error) => this.logger.warn(`expired idempotency keys not removed: ${describeError(error)}`),
    });
  }

  onApplicationShutdown(): void {
    this.stopRepeating?.();
  }
}
