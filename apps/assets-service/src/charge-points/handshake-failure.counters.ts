import { Inject, Injectable } from '@nestjs/common';
import { runStatement } from '@cpc/database';
import { DataSource } from 'typeorm';
import { ASSETS_SERVICE_TUNING_TOKEN, type AssetsServiceTuning } from '../assets-service.config.js';
import {
  CHARGE_POINT_AUTHENTICATION_CONFIG,
  type ChargePointAuthenticationConfig,
} from './charge-point-authentication.config.js';
import {
  forgiveHandshakeFailure,
  giveBackHandshakeSlots,
  giveBackPairSlot,
  type HandshakeCounterKeys,
  sweepHandshakeFailures,
  takeHandshakeSlots,
} from './charge-point-authentication.repository.js';

/** One handshake: the tenant, the identity it claims and the address it comes from (its counters' keys). */
export type HandshakeAttempt = HandshakeCounterKeys;

/**
 * Failed charge point handshakes, counted in assets-service's PostgreSQL so every gateway replica shares them: per
 * (identity, address) up to OCPP_HANDSHAKE_MAX_FAILURES and per identity up to the higher
 * OCPP_HANDSHAKE_MAX_FAILURES_PER_IDENTITY within OCPP_HANDSHAKE_FAILURE_WINDOW_MS. Every attempt takes its slot
 * before the password is checked and gives it back when it was right.
 */
@Injectable()
export class HandshakeFailureCounters {
  private attemptsSinceSweep = 0;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CHARGE_POINT_AUTHENTICATION_CONFIG) private readonly config: ChargePointAuthenticationConfig,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  /** true when the attempt may go on (its slots are taken); false when it is to be refused as rate limited. */
  async take(attempt: HandshakeAttempt): Promise<boolean> {
    this.sweepNowAndThen();
    const [row] = await runStatement(this.dataSource, takeHandshakeSlots, {
      ...attempt,
      failureWindowMs: this.config.failureWindowMs,
      maxFailuresPerAddress: this.config.maxFailuresPerAddress,
      maxFailuresPerIdentity: this.config.maxFailuresPerIdentity,
    });
    if (row.pair_taken && !row.identity_taken) {
      await runStatement(this.dataSource, giveBackPairSlot, attempt);
    }
    return row.pair_taken && row.identity_taken;
  }

  /** The attempt was not decided (the password was never checked): both slots go back. */
  async giveBack(attempt: HandshakeAttempt): Promise<void> {
    await runStatement(this.dataSource, giveBackHandshakeSlots, attempt);
  }

  /** The attempt succeeded: not a failure after all. */
  async forgive(attempt: HandshakeAttempt): Promise<void> {
    await runStatement(this.dataSource, forgiveHandshakeFailure, attempt);
  }

  private sweepNowAndThen(): void {
    this.attemptsSinceSweep += 1;
    if (this.attemptsSinceSweep < this.tuning.handshakeFailureSweepEveryAttempts) return;
    this.attemptsSinceSweep = 0;
    void runStatement(this.dataSource, sweepHandshakeFailures, {
      failureWindowMs: this.config.failureWindowMs,
    }).catch(() => undefined);
  }
}
