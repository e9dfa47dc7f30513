import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ASSETS_SCHEMA,
  ASSETS_SERVICE_TUNING_TOKEN,
  type AssetsServiceTuning,
} from '../assets-service.config.js';
import {
  CHARGE_POINT_AUTHENTICATION_CONFIG,
  type ChargePointAuthenticationConfig,
} from './charge-point-authentication.config.js';

const TABLE = `${ASSETS_SCHEMA}.charge_point_handshake_failures`;

/** The counter keys of one attempt; the identity part is lower()ed in SQL exactly as the controller look-up does. */
const PAIR_KEY = `'pair:' || $1 || '/' || lower($2) || '@' || $3`;
const IDENTITY_KEY = `'identity:' || $1 || '/' || lower($2)`;

/** Counts one more failure in `key`'s window unless it is used up (an expired window starts again at 1). */
function takeSlot(key: string, limitParameter: string, from: string): string {
  return `
    INSERT INTO ${TABLE} AS counter (counter_key, failures, window_started_at)
    SELECT ${key}, 1, now() ${from}
    ON CONFLICT (counter_key) DO UPDATE SET
      failures = CASE WHEN counter.window_started_at > now() - $4 * interval '1 millisecond'
                      THEN counter.failures + 1 ELSE 1 END,
      window_started_at = CASE WHEN counter.window_started_at > now() - $4 * interval '1 millisecond'
                               THEN counter.window_started_at ELSE now() END
    WHERE counter.failures < ${limitParameter}
       OR counter.window_started_at <= now() - $4 * interval '1 millisecond'
    RETURNING counter_key`;
}

/**
 * One statement takes a failure slot for (identity, address) and, only if it got that, one for the identity: an
 * address that used up its own allowance adds nothing more to the identity's, so no single address can lock the
 * owner out. ON CONFLICT DO UPDATE re-checks the latest row under its lock, so N parallel attempts take N slots.
 */
const TAKE_SLOTS = `
  WITH pair AS (${takeSlot(PAIR_KEY, '$5', '')}),
  identity AS (${takeSlot(IDENTITY_KEY, '$6', 'WHERE EXISTS (SELECT 1 FROM pair)')})
  SELECT EXISTS (SELECT 1 FROM pair) AS pair_taken, EXISTS (SELECT 1 FROM identity) AS identity_taken`;

/** The attempt turned out right: the address's failures are forgiven, the identity's slot is given back. */
const FORGIVE = `
  WITH pair AS (DELETE FROM ${TABLE} WHERE counter_key = ${PAIR_KEY})
  UPDATE ${TABLE} SET failures = greatest(failures - 1, 0) WHERE counter_key = ${IDENTITY_KEY}`;

/** The identity was used up although the address was not: the address's slot goes back untouched. */
const GIVE_BACK_PAIR = `UPDATE ${TABLE} SET failures = greatest(failures - 1, 0) WHERE counter_key = ${PAIR_KEY}`;

/** The password could not be checked at all (no capacity): neither slot was a failure. */
const GIVE_BACK_BOTH = `
  UPDATE ${TABLE} SET failures = greatest(failures - 1, 0)
  WHERE counter_key IN (${PAIR_KEY}, ${IDENTITY_KEY})`;

/** Windows over for a while; removed now and then so the table only holds recent attempts. */
const SWEEP = `DELETE FROM ${TABLE} WHERE window_started_at < now() - $1 * interval '1 millisecond'`;

export interface HandshakeAttempt {
  tenantUuid: string;
  identity: string;
  address: string;
}

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
    const [row] = await this.dataSource.query<{ pair_taken: boolean; identity_taken: boolean }[]>(
      TAKE_SLOTS,
      [
        ...this.keyParameters(attempt),
        this.config.failureWindowMs,
        this.config.maxFailuresPerAddress,
        this.config.maxFailuresPerIdentity,
      ],
    );
    if (row.pair_taken && !row.identity_taken) {
      await this.dataSource.query(GIVE_BACK_PAIR, this.keyParameters(attempt));
    }
    return row.pair_taken && row.identity_taken;
  }

  /** The attempt was not decided (the password was never checked): both slots go back. */
  async giveBack(attempt: HandshakeAttempt): Promise<void> {
    await this.dataSource.query(GIVE_BACK_BOTH, this.keyParameters(attempt));
  }

  /** The attempt succeeded: not a failure after all. */
  async forgive(attempt: HandshakeAttempt): Promise<void> {
    await this.dataSource.query(FORGIVE, this.keyParameters(attempt));
  }

  private keyParameters(attempt: HandshakeAttempt): string[] {
    return [attempt.tenantUuid, attempt.identity, attempt.address];
  }

  private sweepNowAndThen(): void {
    this.attemptsSinceSweep += 1;
    if (this.attemptsSinceSweep < this.tuning.handshakeFailureSweepEveryAttempts) return;
    this.attemptsSinceSweep = 0;
    void this.dataSource.query(SWEEP, [this.config.failureWindowMs]).catch(() => undefined);
  }
}
