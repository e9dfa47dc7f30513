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
 * Every attempt is one statement, the same for both kinds, so an attempt beyond the limit costs the same whatever it
 * carries. It reads both counts first: if either is used up, it does nothing and the attempt is refused.
 * - An attempt whose password is to be checked ($7 true) takes a failure slot for (identity, address) and, only if it
 *   got that, one for the identity: an address that used up its own allowance adds nothing more to the identity's,
 *   so no single address can lock the owner out. ON CONFLICT DO UPDATE re-checks the latest row under its lock, so N
 *   parallel attempts take N slots.
 * - An attempt known to be right without a check ($7 false: a profile without a password, or a password verified
 *   before) cannot turn out a failure, so it takes no slot; it forgives the failures of its address as it read them
 *   (a failure counted meanwhile by a parallel attempt stays counted). Without failures on record it writes nothing.
 */
const ATTEMPT = `
  WITH seen AS (
    SELECT counter_key, failures, window_started_at FROM ${TABLE}
     WHERE counter_key IN (${PAIR_KEY}, ${IDENTITY_KEY})
  ),
  used_up AS (
    SELECT FROM seen
     WHERE window_started_at > now() - $4 * interval '1 millisecond'
       AND failures >= CASE WHEN counter_key = ${PAIR_KEY} THEN $5::integer ELSE $6::integer END
  ),
  pair AS (${takeSlot(PAIR_KEY, '$5', 'WHERE $7::boolean AND NOT EXISTS (SELECT FROM used_up)')}),
  identity AS (${takeSlot(IDENTITY_KEY, '$6', 'WHERE EXISTS (SELECT 1 FROM pair)')}),
  forgiven AS (
    DELETE FROM ${TABLE} AS counter USING seen
     WHERE NOT $7::boolean AND NOT EXISTS (SELECT FROM used_up)
       AND seen.counter_key = ${PAIR_KEY} AND counter.counter_key = seen.counter_key
       AND counter.failures = seen.failures AND counter.window_started_at = seen.window_started_at
  )
  SELECT NOT EXISTS (SELECT FROM used_up) AS within_limits,
         EXISTS (SELECT 1 FROM pair) AS pair_taken, EXISTS (SELECT 1 FROM identity) AS identity_taken`;

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
 * OCPP_HANDSHAKE_MAX_FAILURES_PER_IDENTITY within OCPP_HANDSHAKE_FAILURE_WINDOW_MS. An attempt whose password is to
 * be checked takes its slot before the check and gives it back when it was right (take, then forgive); one that needs
 * no check (no password in its profile, or one verified before) is only admitted (admit): one statement, a write only
 * when its address has failures on record.
 */
@Injectable()
export class HandshakeFailureCounters {
  private attemptsSinceSweep = 0;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CHARGE_POINT_AUTHENTICATION_CONFIG) private readonly config: ChargePointAuthenticationConfig,
    @Inject(ASSETS_SERVICE_TUNING_TOKEN) private readonly tuning: AssetsServiceTuning,
  ) {}

  /**
   * For an attempt whose password is to be checked: true when it may go on (its slots are taken); false when it is to
   * be refused as rate limited.
   */
  async take(attempt: HandshakeAttempt): Promise<boolean> {
    const row = await this.attempt(attempt, true);
    if (row.pair_taken && !row.identity_taken) {
      await this.dataSource.query(GIVE_BACK_PAIR, this.keyParameters(attempt));
    }
    return row.pair_taken && row.identity_taken;
  }

  /**
   * For an attempt right without a password check: true when it may connect (its address's failures are forgiven),
   * false when a count of it is used up and it is to be refused as rate limited, as a checked one would be.
   */
  async admit(attempt: HandshakeAttempt): Promise<boolean> {
    return (await this.attempt(attempt, false)).within_limits;
  }

  /** The attempt was not decided (the password was never checked): both slots go back. */
  async giveBack(attempt: HandshakeAttempt): Promise<void> {
    await this.dataSource.query(GIVE_BACK_BOTH, this.keyParameters(attempt));
  }

  /** The attempt succeeded: not a failure after all. */
  async forgive(attempt: HandshakeAttempt): Promise<void> {
    await this.dataSource.query(FORGIVE, this.keyParameters(attempt));
  }

  private async attempt(
    attempt: HandshakeAttempt,
    toBeChecked: boolean,
  ): Promise<{ within_limits: boolean; pair_taken: boolean; identity_taken: boolean }> {
    this.sweepNowAndThen();
    const [row] = await this.dataSource.query<
      { within_limits: boolean; pair_taken: boolean; identity_taken: boolean }[]
    >(ATTEMPT, [
      ...this.keyParameters(attempt),
      this.config.failureWindowMs,
      this.config.maxFailuresPerAddress,
      this.config.maxFailuresPerIdentity,
      toBeChecked,
    ]);
    return row;
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
