import { Inject, Injectable } from '@nestjs/common';
import { BoundedWork } from '@cpc/bounded-work';
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
export class PasswordCheckCapacity extends BoundedWork {
  constructor(@Inject(CHARGE_POINT_AUTHENTICATION_CONFIG) config: ChargePointAuthenticationConfig) {
    super(
      config.maxConcurrentPasswordChecks,
      config.maxQueuedPasswordChecks,
      () =>
        new ServiceUnavailableError('too many charge point handshakes are being checked, try again later'),
    );
  }
}
