import { sqlStatement } from '@cpc/database';

/**
 * The statements of auth.token_limit_counters: per scope and subject (an address, an account, an account at an
 * address), the hits of the current window and until when the address is known to the account.
 */

/**
 * One atomic upsert: starts a new window when the old one has ended, else counts one more hit; answers the slot,
 * or the seconds until the window ends when the hit is beyond the limit.
 */
export const takeTokenLimitSlot = sqlStatement<
  { scope: string; subject: string; windowSeconds: number },
  { hits: number; window_started_at: string; retry_after_seconds: number; known: boolean }
>({
  name: 'token-limits.take-slot',
  parameters: ['scope', 'subject', 'windowSeconds'],
  sql: `INSERT INTO auth.token_limit_counters AS counter (scope, subject, window_started_at, hits)
         VALUES (:scope, :subject, now(), 1)
         ON CONFLICT (scope, subject) DO UPDATE SET
           window_started_at = CASE WHEN counter.window_started_at <= now() - :windowSeconds * interval '1 second'
                                    THEN now() ELSE counter.window_started_at END,
           hits = CASE WHEN counter.window_started_at <= now() - :windowSeconds * interval '1 second'
                       THEN 1 ELSE LEAST(counter.hits, 2000000000) + 1 END
         RETURNING hits,
                   window_started_at::text AS window_started_at,
                   COALESCE(known_until > now(), false) AS known,
                   GREATEST(1, CEIL(EXTRACT(EPOCH FROM
                     window_started_at + :windowSeconds * interval '1 second' - now())))::int AS retry_after_seconds`,
});

/** Gives a slot back, only in the window it was taken in (`windowStartedAt` exactly as stored). */
export const giveBackTokenLimitSlot = sqlStatement<{
  scope: string;
  subject: string;
  windowStartedAt: string;
}>({
  name: 'token-limits.give-back-slot',
  parameters: ['scope', 'subject', 'windowStartedAt'],
  sql: `UPDATE auth.token_limit_counters SET hits = hits - 1
        WHERE scope = :scope AND subject = :subject AND window_started_at = :windowStartedAt::timestamptz AND hits > 0`,
});

/** After a successful login: forgets the pair's failures and remembers the address for `knownDays`. */
export const rememberKnownAddress = sqlStatement<{ scope: string; subject: string; knownDays: number }>({
  name: 'token-limits.remember-known-address',
  parameters: ['scope', 'subject', 'knownDays'],
  sql: `INSERT INTO auth.token_limit_counters AS counter (scope, subject, window_started_at, hits, known_until)
       VALUES (:scope, :subject, now(), 0, now() + :knownDays * interval '1 day')
       ON CONFLICT (scope, subject) DO UPDATE SET hits = 0, known_until = EXCLUDED.known_until`,
});

/** Deletes counters whose window has ended, unless they still remember a known address. */
export const sweepTokenLimitCounters = sqlStatement<{
  addressWindowSeconds: number;
  failureWindowSeconds: number;
}>({
  name: 'token-limits.sweep',
  parameters: ['addressWindowSeconds', 'failureWindowSeconds'],
  sql: `DELETE FROM auth.token_limit_counters
        WHERE (known_until IS NULL OR known_until <= now())
          AND ((scope = 'address' AND window_started_at <= now() - :addressWindowSeconds * interval '1 second')
            OR (scope <> 'address' AND window_started_at <= now() - :failureWindowSeconds * interval '1 second'))`,
});

/** For the SQL snapshots. */
export const TOKEN_LIMITS_STATEMENTS = [
  takeTokenLimitSlot,
  giveBackTokenLimitSlot,
  rememberKnownAddress,
  sweepTokenLimitCounters,
];
