import { Inject, Injectable } from '@nestjs/common';
import { ServiceUnavailableError } from '@cpc/errors';
import {
  CHARGE_POINT_AUTHENTICATION_CONFIG,
  type ChargePointAuthenticationConfig,
} from './charge-point-authentication.config.js';

/**
 * Bounds the scrypt work of charge point handshakes: at most `maxConcurrentPasswordChecks` run at once (each takes
 * ~128 MiB at the default cost), at most `maxQueuedPasswordChecks` wait for them, and anything beyond is refused at
 * once with service_unavailable (the gateway answers 503), so a flood of handshakes queues no unbounded work.
 */
@Injectable()
export class PasswordCheckCapacity {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    @Inject(CHARGE_POINT_AUTHENTICATION_CONFIG) private readonly config: ChargePointAuthenticationConfig,
  ) {}

  /** Runs `check` when a place is free; throws ServiceUnavailableError at once when even the queue is full. */
  async run<T>(check: () => Promise<T>): Promise<T> {
    if (this.running >= this.config.maxConcurrentPasswordChecks) {
      if (this.waiting.length >= this.config.maxQueuedPasswordChecks) {
        throw new ServiceUnavailableError(
          'too many charge point handshakes are being checked, try again later',
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await check();
    } finally {
      // The place passes straight to the next in line, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
