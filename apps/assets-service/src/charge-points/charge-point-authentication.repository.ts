import type { SecurityProfile } from '@cpc/contracts';
import { sqlStatement } from '@cpc/database';

/** What a handshake needs of its controller. */
export interface HandshakeController {
  uuid: string;
  ocppIdentity: string;
  securityProfile: SecurityProfile;
  credentialsVersion: number;
  locationUuid: string;
  /** scrypt hash (see password-hash.ts); null for security profile 0/3 without a password. */
  ocppPasswordHash: string | null;
}

/**
 * The controllers of the handshakes a HandshakeControllerLookup group asks for, in one statement, by the tenant's
 * case-insensitive identity (controllers_tenant_identity_key): the columns the check needs and no entity around them,
 * as every charge point's (re)connect runs it. Each found one comes with the position (from 1) of the look-up it
 * answers, so a look-up is matched to its row without comparing identities outside SQL.
 */
export const findHandshakeControllers = sqlStatement<
  { tenantUuids: string[]; identities: string[] },
  HandshakeController & { position: string }
>({
  name: 'charge-point-authentication.find-controllers',
  parameters: ['tenantUuids', 'identities'],
  sql: `SELECT wanted.position, controller.uuid, controller.ocpp_identity AS "ocppIdentity",
               controller.security_profile AS "securityProfile", controller.credentials_version AS "credentialsVersion",
               controller.location_uuid AS "locationUuid", controller.ocpp_password_hash AS "ocppPasswordHash"
          FROM unnest(:tenantUuids::uuid[], :identities::text[]) WITH ORDINALITY AS wanted(tenant_uuid, identity, position)
          JOIN assets.controllers controller
            ON controller.tenant_uuid = wanted.tenant_uuid AND lower(controller.ocpp_identity) = lower(wanted.identity)`,
});

/**
 * A hash made with older scrypt parameters replaced by one with today's, only if nobody changed the password
 * meanwhile: a row comes back when it was replaced.
 */
export const upgradePasswordHash = sqlStatement<
  { upgradedHash: string; controllerUuid: string; storedHash: string },
  { uuid: string }
>({
  name: 'charge-point-authentication.upgrade-password-hash',
  parameters: ['upgradedHash', 'controllerUuid', 'storedHash'],
  sql: `UPDATE assets.controllers SET ocpp_password_hash = :upgradedHash
         WHERE uuid = :controllerUuid AND ocpp_password_hash = :storedHash
        RETURNING uuid`,
});

/** What the failure counters of a handshake attempt are kept by (HandshakeFailureCounters). */
export interface HandshakeCounterKeys {
  tenantUuid: string;
  identity: string;
  address: string;
}

const HANDSHAKE_COUNTER_KEYS = ['tenantUuid', 'identity', 'address'] as const;

const FAILURES = 'assets.charge_point_handshake_failures';

/** The counter keys of one attempt; the identity part is lower()ed in SQL exactly as the controller look-up does. */
const PAIR_KEY = `'pair:' || :tenantUuid || '/' || lower(:identity) || '@' || :address`;
const IDENTITY_KEY = `'identity:' || :tenantUuid || '/' || lower(:identity)`;

/** Counts one more failure in `key`'s window unless it is used up (an expired window starts again at 1). */
function takeSlot(key: string, limitParameter: string, from: string): string {
  return `
    INSERT INTO ${FAILURES} AS counter (counter_key, failures, window_started_at)
    SELECT ${key}, 1, now() ${from}
    ON CONFLICT (counter_key) DO UPDATE SET
      failures = CASE WHEN counter.window_started_at > now() - :failureWindowMs * interval '1 millisecond'
                      THEN counter.failures + 1 ELSE 1 END,
      window_started_at = CASE WHEN counter.window_started_at > now() - :failureWindowMs * interval '1 millisecond'
                               THEN counter.window_started_at ELSE now() END
    WHERE counter.failures < ${limitParameter}
       OR counter.window_started_at <= now() - :failureWindowMs * interval '1 millisecond'
    RETURNING counter_key`;
}

/**
 * One statement takes a failure slot for (identity, address) and, only if it got that, one for the identity: an
 * address that used up its own allowance adds nothing more to the identity's, so no single address can lock the
 * owner out. ON CONFLICT DO UPDATE re-checks the latest row under its lock, so N parallel attempts take N slots.
 */
export const takeHandshakeSlots = sqlStatement<
  HandshakeCounterKeys & {
    failureWindowMs: number;
    maxFailuresPerAddress: number;
    maxFailuresPerIdentity: number;
  },
  { pair_taken: boolean; identity_taken: boolean }
>({
  name: 'charge-point-authentication.take-handshake-slots',
  parameters: [
    ...HANDSHAKE_COUNTER_KEYS,
    'failureWindowMs',
    'maxFailuresPerAddress',
    'maxFailuresPerIdentity',
  ],
  sql: `
  WITH pair AS (${takeSlot(PAIR_KEY, ':maxFailuresPerAddress', '')}),
  identity AS (${takeSlot(IDENTITY_KEY, ':maxFailuresPerIdentity', 'WHERE EXISTS (SELECT 1 FROM pair)')})
  SELECT EXISTS (SELECT 1 FROM pair) AS pair_taken, EXISTS (SELECT 1 FROM identity) AS identity_taken`,
});

/** The attempt turned out right: the address's failures are forgiven, the identity's slot is given back. */
export const forgiveHandshakeFailure = sqlStatement<HandshakeCounterKeys>({
  name: 'charge-point-authentication.forgive-handshake-failure',
  parameters: HANDSHAKE_COUNTER_KEYS,
  sql: `
  WITH pair AS (DELETE FROM ${FAILURES} WHERE counter_key = ${PAIR_KEY})
  UPDATE ${FAILURES} SET failures = greatest(failures - 1, 0) WHERE counter_key = ${IDENTITY_KEY}`,
});

/** The identity was used up although the address was not: the address's slot goes back untouched. */
export const giveBackPairSlot = sqlStatement<HandshakeCounterKeys>({
  name: 'charge-point-authentication.give-back-pair-slot',
  parameters: HANDSHAKE_COUNTER_KEYS,
  sql: `UPDATE ${FAILURES} SET failures = greatest(failures - 1, 0) WHERE counter_key = ${PAIR_KEY}`,
});

/** The password could not be checked at all (no capacity): neither slot was a failure. */
export const giveBackHandshakeSlots = sqlStatement<HandshakeCounterKeys>({
  name: 'charge-point-authentication.give-back-handshake-slots',
  parameters: HANDSHAKE_COUNTER_KEYS,
  sql: `
  UPDATE ${FAILURES} SET failures = greatest(failures - 1, 0)
  WHERE counter_key IN (${PAIR_KEY}, ${IDENTITY_KEY})`,
});

/** Windows over for a while; removed now and then so the table only holds recent attempts. */
export const sweepHandshakeFailures = sqlStatement<{ failureWindowMs: number }>({
  name: 'charge-point-authentication.sweep-handshake-failures',
  parameters: ['failureWindowMs'],
  sql: `DELETE FROM ${FAILURES} WHERE window_started_at < now() - :failureWindowMs * interval '1 millisecond'`,
});

/** For the SQL snapshots. */
export const CHARGE_POINT_AUTHENTICATION_STATEMENTS = [
  findHandshakeControllers,
  upgradePasswordHash,
  takeHandshakeSlots,
  giveBackPairSlot,
  giveBackHandshakeSlots,
  forgiveHandshakeFailure,
  sweepHandshakeFailures,
];
