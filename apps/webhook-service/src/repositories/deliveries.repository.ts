import { pagedListStatements, sqlStatement } from '@cpc/database';
import { cursorKeySelect, type OrderedKeysetColumn } from '@cpc/pagination';

/**
 * The statements of webhooks.deliveries. Rows of one subscription and one ordering key (a controller, a command) form
 * a queue in stream order: only its first pending row can be claimed, and a claimed row stays pending (its next
 * attempt pushed out by the lease) until its attempt is recorded, so the next row waits for it on every replica. A row
 * is claimable once its consumer's ack floor has reached it: then every earlier event of the stream has its rows
 * written, whichever replica handled it, or is parked (webhooks.parked_events), so no earlier row of its queue can
 * still appear but a parked event's: while one is pending, the later rows of its ordering key wait.
 *
 * The fan-out, the claim and the outcomes, run for every event and attempt, are prepared: planning them on each call
 * cost PostgreSQL about as much as running them. PostgreSQL keeps a connection's generic plan until a table it reads is
 * analysed, and one made while webhooks.deliveries was small (after a deploy, in the bench) walked a whole index, or
 * the table, per call later on: TableStatisticsKeeper analyses the tables at every doubling, so plans are made again
 * as they grow. Generic and custom plans read what they claim or write even when the statistics mislead
 * (delivery-claims.plans.integration.spec.ts).
 */

export interface DeliveryRow {
  id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
}

const COLUMNS = `id, event_type, status, attempts, last_response_code, last_error, last_attempt_at,
       CASE WHEN status = 'pending' THEN GREATEST(next_attempt_at, leased_until) END AS next_attempt_at, created_at,
       delivered_at`;

/**
 * A row's queue (its subscription and ordering key) as one value, the expression of deliveries_queue_idx: the
 * statements look up a queue's pending rows by it, which only that index answers (see the migration
 * IndexDeliveryQueuesByKey1796300000000 for the plan it replaces).
 */
function queueKey(row: string): string {
  return `(${row}.subscription_uuid::text || '/' || ${row}.ordering_key)`;
}

/**
 * "Pending" as deliveries_queue_idx states it, which the index of due rows (`status = 'pending'`) cannot be proven
 * from: a queue look-up can only use the queues' index, whatever the statistics
 * (QueueIndexApartFromDueIndex1796700000000). The same rows as `status = 'pending'` by the table's CHECK.
 */
function queuePending(row: string): string {
  return `${row}.status <> 'delivered' AND ${row}.status <> 'failed'`;
}

/**
 * The sequence of `seq` (bigserial: CACHE 1, INCREMENT 1, NO CYCLE, which delivery-list-walks.integration.spec.ts
 * checks): each nextval hands out one value above every value handed out before it, whichever session asks.
 */
const SEQ_SEQUENCE = 'webhooks.deliveries_seq_seq';

/** The last seq handed out, 0 before the first; read under the sequence's buffer lock (NULL until first called). */
const DRAWN_SEQ_SQL = `COALESCE(pg_sequence_last_value('${SEQ_SEQUENCE}'::regclass), 0)`;

/** What a transaction inserting deliveries adds to its connection's application_name, before its from-seq. */
const INSERTS_DELIVERIES = ' inserts webhooks.deliveries from ';

/**
 * The CTE every statement inserting deliveries starts with, and the condition its INSERT reads it by (a one-time
 * filter, so it runs before the first row, and with it the first nextval, exists): marks the transaction for the
 * deliveries list's horizon (deliveriesVisibleBelow) with SET LOCAL application_name, the service's own followed by
 * INSERTS_DELIVERIES and the last seq drawn, V. Every seq the transaction draws after it is above V. pg_stat_activity
 * shows the mark through the COMMIT until after the rows are readable (PostgreSQL resets it once the transaction has
 * ended in the proc array). A transaction marked already keeps its first V, lower than what its later statements
 * would read. In the statement, not a statement of its own: a fan-out runs as one autocommit statement, and a mark
 * of its own would cost it a transaction block (BEGIN, the mark, COMMIT: three round trips more per event).
 */
const MARK_CTE = `delivery_insert_mark AS MATERIALIZED (
          SELECT set_config('application_name',
                   CASE WHEN strpos(current_setting('application_name'), '${INSERTS_DELIVERIES}') > 0
                        THEN current_setting('application_name')
                        ELSE current_setting('application_name') || '${INSERTS_DELIVERIES}'
                             || ${DRAWN_SEQ_SQL} END,
                   true) AS marked)`;
const MARKED = `(SELECT marked FROM delivery_insert_mark) IS NOT NULL`;

/** One event of fanOutEvents (an element of its JSON array). */
export interface FannedOutEvent {
  tenant_uuid: string;
  event_id: string;
  event_type: string;
  ordering_key: string;
  stream_seq: number;
  body: string;
  controller_uuid: string;
  /** Null matches no location filter. */
  location_uuid: string | null;
}

/**
 * The delivery rows of events (a JSON array of FannedOutEvent) in one statement: one per enabled, matching
 * subscription of each event's tenant; a redelivered event adds nothing. A row whose queue waits for the next attempt
 * of a failed earlier row waits with it, as recordOutcomes parks the rows already there, so that claims do not walk
 * past it meanwhile. Answers the stream sequences of the events that a location-filtered subscription of their type
 * could want: those are fanned out again with their controller's location (`location_uuid` null matches no location
 * filter), which adds only the rows the first run left out.
 * The subscriptions it writes rows for are share-locked first, in the order of their uuids (the order recordOutcomes
 * locks them in): a subscription being disabled or deleted is waited for and then left out, and a disable waits for
 * the fan-outs that read it enabled, so it sees their rows (disableSubscription, failPendingOfDisabled).
 * Marked as inserting deliveries (MARK_CTE) before its first row.
 */
export const fanOutEvents = sqlStatement<
  { events: string },
  { inserted: number; location_filtered: string[] }
>({
  name: 'deliveries.fan-out',
  prepared: true,
  parameters: ['events'],
  sql: `WITH ${MARK_CTE},
        event AS (
          SELECT * FROM jsonb_to_recordset(:events::jsonb)
                     AS e(tenant_uuid uuid, event_id varchar, event_type varchar, ordering_key varchar,
                          stream_seq bigint, body text, controller_uuid uuid, location_uuid uuid)),
        subscription AS MATERIALIZED (
          SELECT s.uuid, s.tenant_uuid, s.event_types, s.controller_uuid, s.location_uuid
            FROM webhooks.subscriptions s
           WHERE s.tenant_uuid = ANY (ARRAY(SELECT DISTINCT tenant_uuid FROM event)) AND s.enabled
             AND s.event_types && ARRAY(SELECT DISTINCT event_type::text FROM event)
           ORDER BY s.uuid
             FOR SHARE),
        inserted AS (
          INSERT INTO webhooks.deliveries
                 (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, stream_seq, body,
                  next_attempt_at)
          SELECT gen_random_uuid(), s.tenant_uuid, s.uuid, e.event_id, e.event_type, e.ordering_key, e.stream_seq,
                 e.body,
                 GREATEST(now(), (SELECT max(p.next_attempt_at) FROM webhooks.deliveries p
                                   WHERE ${queuePending('p')} AND p.stream_seq < e.stream_seq
                                     AND ${queueKey('p')} = s.uuid::text || '/' || e.ordering_key))
            FROM event e
            JOIN subscription s
              ON s.tenant_uuid = e.tenant_uuid AND e.event_type = ANY (s.event_types)
             AND (s.controller_uuid IS NULL OR s.controller_uuid = e.controller_uuid)
             AND (s.location_uuid IS NULL OR s.location_uuid = e.location_uuid)
           WHERE ${MARKED}
          ON CONFLICT (event_id, subscription_uuid) DO NOTHING
          RETURNING id)
        SELECT (SELECT count(*) FROM inserted)::int AS inserted,
               ARRAY(SELECT e.stream_seq FROM event e
                      WHERE EXISTS (SELECT 1 FROM webhooks.subscriptions s
                                     WHERE s.tenant_uuid = e.tenant_uuid AND s.enabled AND s.location_uuid IS NOT NULL
                                       AND e.event_type = ANY (s.event_types))) AS location_filtered`,
});

/** A ping for one subscription (`:test`), in a queue of its own; marked as inserting deliveries (MARK_CTE). */
export const insertPing = sqlStatement<
  {
    id: string;
    tenantUuid: string;
    subscriptionUuid: string;
    eventId: string;
    orderingKey: string;
    body: string;
  },
  DeliveryRow
>({
  name: 'deliveries.insert-ping',
  parameters: ['id', 'tenantUuid', 'subscriptionUuid', 'eventId', 'orderingKey', 'body'],
  sql: `WITH ${MARK_CTE}
        INSERT INTO webhooks.deliveries
              (id, tenant_uuid, subscription_uuid, event_id, event_type, ordering_key, body, next_attempt_at)
       SELECT :id::uuid, :tenantUuid::uuid, :subscriptionUuid::uuid, :eventId::varchar, 'ping', :orderingKey::varchar,
              :body::text, now()
        WHERE ${MARKED}
       RETURNING ${COLUMNS}`,
});

export interface ClaimedDelivery {
  id: string;
  subscription_uuid: string;
  ordering_key: string;
  body: string;
  attempts: number;
  created_at: Date;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
}

/**
 * Takes due heads of queues of enabled subscriptions that their consumer's ack floor has reached (commands:
 * `commandAckFloor`, charge point events: `chargePointAckFloor`; pings have no stream place) and no earlier parked
 * event of their ordering key still waits for, counts the attempt and hides them from other replicas for the lease.
 * Subscription by subscription, each up to its free share of `perSubscriptionLimit` (`inFlightCounts` requests of
 * `inFlightSubscriptions` are running here), so a subscription at its cap is not even looked at: its backlog, however
 * large, costs the others nothing. A subscription whose deliveries have failed for `probeOnlyAfterMs` without a
 * success in between has a share of one: one probe at a time until a delivery succeeds again. Whether a head has an
 * earlier pending row is a scalar subquery, run per candidate with its queue key: as NOT EXISTS it became an anti-join,
 * which under statistics that count no pending row scanned the queues' index whole for every candidate.
 */
export const claimDueDeliveries = sqlStatement<
  {
    limit: number;
    leaseMs: number;
    perSubscriptionLimit: number;
    inFlightSubscriptions: string[];
    inFlightCounts: number[];
    commandAckFloor: number;
    chargePointAckFloor: number;
    probeOnlyAfterMs: number;
  },
  ClaimedDelivery
>({
  name: 'deliveries.claim',
  prepared: true,
  parameters: [
    'limit',
    'leaseMs',
    'perSubscriptionLimit',
    'inFlightSubscriptions',
    'inFlightCounts',
    'commandAckFloor',
    'chargePointAckFloor',
    'probeOnlyAfterMs',
  ],
  sql: `WITH in_flight AS (
          SELECT * FROM unnest(:inFlightSubscriptions::uuid[], :inFlightCounts::int[]) AS f(subscription_uuid, requests)),
        heads AS (
          SELECT h.id, h.next_attempt_at FROM webhooks.subscriptions s
            LEFT JOIN in_flight f ON f.subscription_uuid = s.uuid
           CROSS JOIN LATERAL (
                 SELECT CASE WHEN s.failing_since <= now() - :probeOnlyAfterMs * interval '1 millisecond' THEN 1
                             ELSE :perSubscriptionLimit::int END AS at_most) share
           CROSS JOIN LATERAL (
                 SELECT d.id, d.next_attempt_at FROM webhooks.deliveries d
                  WHERE d.subscription_uuid = s.uuid AND d.status = 'pending' AND d.next_attempt_at <= now()
                    AND (d.leased_until IS NULL OR d.leased_until <= now())
                    AND (d.stream_seq IS NULL OR d.stream_seq <= CASE WHEN d.ordering_key LIKE 'command:%'
                                                                   THEN :commandAckFloor::bigint
                                                                   ELSE :chargePointAckFloor::bigint END)
                    AND (SELECT 1 FROM webhooks.deliveries e
                          WHERE ${queuePending('e')} AND ${queueKey('e')} = ${queueKey('d')}
                            AND e.stream_seq < d.stream_seq
                          LIMIT 1) IS NULL
                    AND NOT EXISTS (SELECT 1 FROM webhooks.parked_events p
                                     WHERE p.status = 'pending' AND p.ordering_key = d.ordering_key
                                       AND p.stream_seq < d.stream_seq)
                  ORDER BY d.next_attempt_at
                  LIMIT share.at_most - COALESCE(f.requests, 0)
                  FOR UPDATE OF d SKIP LOCKED) h
           WHERE s.enabled AND COALESCE(f.requests, 0) < share.at_most
           ORDER BY h.next_attempt_at
           LIMIT :limit)
        UPDATE webhooks.deliveries d
           SET attempts = d.attempts + 1, last_attempt_at = now(),
               leased_until = now() + :leaseMs * interval '1 millisecond'
          FROM heads, webhooks.subscriptions s
         WHERE d.id = heads.id AND s.uuid = d.subscription_uuid
        RETURNING d.id, d.subscription_uuid, d.ordering_key, d.body, d.attempts, d.created_at, s.url,
                  s.secret_ciphertext,
                  CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_ciphertext END
                    AS previous_secret_ciphertext`,
});

/**
 * Gives claimed rows back unsent (shutdown, or a claim that waited past its time in ClaimedDeliveries): due at once
 * again, the attempt their claim counted taken back. A claim is named by its row and the attempt it counted
 * (`attempts` as the claim answered it): a row whose lease ran out and that another replica claimed since is theirs.
 */
export const releaseClaims = sqlStatement<{ ids: string[]; attempts: number[] }>({
  name: 'deliveries.release-claims',
  parameters: ['ids', 'attempts'],
  sql: `UPDATE webhooks.deliveries d SET attempts = d.attempts - 1, leased_until = NULL
          FROM unnest(:ids::uuid[], :attempts::int[]) AS claim(id, attempts)
         WHERE d.id = claim.id AND d.attempts = claim.attempts AND d.status = 'pending' AND d.attempts > 0`,
});

/** One attempt's outcome, as recordOutcomes takes it (an element of its JSON array). */
export interface DeliveryOutcome {
  id: string;
  /** The attempt (the row's `attempts` as its claim answered it): an outcome of an earlier claim changes nothing. */
  attempts: number;
  /** A 2xx answer: the delivery is done; otherwise it is retried at `next_attempt_at`. */
  delivered: boolean;
  status_code: number | null;
  error: string | null;
  /** ISO 8601; null when delivered. */
  next_attempt_at: string | null;
}

/**
 * The outcomes of attempts (a JSON array of DeliveryOutcome), of any subscriptions, in one statement. An outcome
 * counts only while its row is at the attempt it reports: one that arrives after its lease ran out and another replica
 * claimed the row again (a slow attempt) leaves that claim alone. Delivered: the row is done. Failed: the row, if still pending (its subscription may have been disabled meanwhile), waits for
 * `next_attempt_at`. A subscription's failing streak ends when all its outcomes here are deliveries, starts when all
 * are failures (unless it runs already), and starts anew (now) when both are here: the latest success is now.
 * Answers each failure's subscription's streak start (null when unknown: another statement changed it meanwhile).
 * The later pending rows of an attempted row's queue, which cannot go before it, follow it: a failure parks them
 * until its next attempt, so that claims do not walk past them again and again while it waits (a receiver that is
 * down had every claim of the replica read its whole backlog), and a delivery wakes those parked. They are looked up
 * per outcome with its queue key (OFFSET 0 keeps the lateral subquery from being joined as a whole: under statistics
 * that count no pending row, the join scanned the queues' index whole for every outcome).
 * Rows are locked in the order of their ids, then subscriptions in the order of theirs, as disableSubscription does,
 * so that two of these, or one and a disable, never deadlock.
 */
export const recordOutcomes = sqlStatement<{ outcomes: string }, { id: string; failing_since: Date | null }>({
  name: 'deliveries.record-outcomes',
  prepared: true,
  parameters: ['outcomes'],
  sql: `WITH outcome AS (
          SELECT * FROM jsonb_to_recordset(:outcomes::jsonb)
                     AS o(id uuid, attempts int, delivered boolean, status_code int, error text,
                          next_attempt_at timestamptz)),
        followers AS MATERIALIZED (
          SELECT f.id, CASE WHEN o.delivered THEN now() ELSE o.next_attempt_at END AS next_attempt_at
            FROM outcome o
            JOIN webhooks.deliveries d ON d.id = o.id AND d.attempts = o.attempts
           CROSS JOIN LATERAL (
                 SELECT f.id, f.next_attempt_at FROM webhooks.deliveries f
                  WHERE ${queuePending('f')} AND ${queueKey('f')} = ${queueKey('d')} AND f.stream_seq > d.stream_seq
                 OFFSET 0) f
           WHERE d.id = ANY (ARRAY(SELECT id FROM outcome)) AND f.id <> ALL (ARRAY(SELECT id FROM outcome))
             AND (o.delivered OR d.status = 'pending')
             AND CASE WHEN o.delivered THEN f.next_attempt_at > now() ELSE f.next_attempt_at < o.next_attempt_at END),
        locked_deliveries AS MATERIALIZED (
          SELECT d.id, o.id IS NOT NULL AS attempted FROM webhooks.deliveries d LEFT JOIN outcome o ON o.id = d.id
           WHERE d.id = ANY (ARRAY(SELECT id FROM outcome UNION ALL SELECT id FROM followers))
             AND (o.delivered OR d.status = 'pending') AND (o.id IS NULL OR d.attempts = o.attempts)
           ORDER BY d.id
             FOR UPDATE OF d),
        followers_moved AS (
          UPDATE webhooks.deliveries d SET next_attempt_at = f.next_attempt_at
            FROM followers f
           WHERE d.id = ANY (ARRAY(SELECT id FROM locked_deliveries WHERE NOT attempted)) AND f.id = d.id),
        recorded AS (
          UPDATE webhooks.deliveries d
             SET status = CASE WHEN o.delivered THEN 'delivered' ELSE d.status END,
                 delivered_at = CASE WHEN o.delivered THEN now() ELSE d.delivered_at END,
                 next_attempt_at = CASE WHEN o.delivered THEN NULL ELSE o.next_attempt_at END, leased_until = NULL,
                 last_response_code = o.status_code, last_error = left(o.error, 1000)
            FROM outcome o
           WHERE d.id = ANY (ARRAY(SELECT id FROM locked_deliveries WHERE attempted)) AND o.id = d.id
          RETURNING d.id, d.subscription_uuid, o.delivered),
        streak AS (
          SELECT subscription_uuid, bool_and(delivered) AS all_delivered, bool_or(delivered) AS any_delivered
            FROM recorded GROUP BY subscription_uuid),
        locked_subscriptions AS MATERIALIZED (
          SELECT s.uuid, x.all_delivered, x.any_delivered
            FROM webhooks.subscriptions s JOIN streak x ON x.subscription_uuid = s.uuid
           WHERE CASE WHEN x.all_delivered THEN s.failing_since IS NOT NULL
                      WHEN x.any_delivered THEN true
                      ELSE s.failing_since IS NULL END
           ORDER BY s.uuid
             FOR UPDATE OF s),
        streak_changed AS (
          UPDATE webhooks.subscriptions s
             SET failing_since = CASE WHEN l.all_delivered THEN NULL
                                      WHEN l.any_delivered THEN now()
                                      ELSE COALESCE(s.failing_since, now()) END
            FROM locked_subscriptions l
           WHERE s.uuid = l.uuid
          RETURNING s.uuid, s.failing_since)
        SELECT r.id, CASE WHEN c.uuid IS NOT NULL THEN c.failing_since ELSE s.failing_since END AS failing_since
          FROM recorded r
          JOIN webhooks.subscriptions s ON s.uuid = r.subscription_uuid
          LEFT JOIN streak_changed c ON c.uuid = r.subscription_uuid
         WHERE NOT r.delivered`,
});

/**
 * Disables a subscription: on a 410 (`failingForMs` null) always; for a failing streak (`failingForMs` its limit)
 * only while it is enabled and still failing that long, so a success or a re-enable that came after the worker read
 * the streak wins. Answers whether it disabled it. Its pending deliveries are locked first, in the order of their ids,
 * as recordOutcomes locks them (the other way round the two deadlocked); failPendingOfDisabled, next in its
 * transaction, fails them, with the rows of fan-outs that committed while this waited for the subscription's lock.
 */
export const disableSubscription = sqlStatement<
  { subscriptionUuid: string; reason: string; failingForMs: number | null },
  { disabled: boolean }
>({
  name: 'deliveries.disable-subscription',
  parameters: ['subscriptionUuid', 'reason', 'failingForMs'],
  sql: `WITH locked AS MATERIALIZED (
          SELECT id FROM webhooks.deliveries
           WHERE subscription_uuid = :subscriptionUuid AND status = 'pending'
           ORDER BY id
             FOR UPDATE),
        disabled AS (
          UPDATE webhooks.subscriptions SET enabled = false, disabled_reason = left(:reason, 500), updated_at = now()
           WHERE uuid = :subscriptionUuid AND (SELECT count(*) FROM locked) >= 0
             AND (:failingForMs::bigint IS NULL
                  OR (enabled AND failing_since <= now() - :failingForMs::bigint * interval '1 millisecond'))
          RETURNING uuid)
        SELECT EXISTS (SELECT 1 FROM disabled) AS disabled`,
});

/**
 * The pending deliveries of a subscription that is disabled, failed with the reason: after disableSubscription, in its
 * transaction (which holds the rows it saw), so that the rows fan-outs committed meanwhile fail too.
 */
export const failPendingOfDisabled = sqlStatement<{ subscriptionUuid: string; reason: string }>({
  name: 'deliveries.fail-pending-of-disabled',
  parameters: ['subscriptionUuid', 'reason'],
  sql: `UPDATE webhooks.deliveries d SET status = 'failed', next_attempt_at = NULL, leased_until = NULL,
               last_error = COALESCE(d.last_error, left(:reason, 1000))
         WHERE d.subscription_uuid = :subscriptionUuid AND d.status = 'pending'
           AND EXISTS (SELECT 1 FROM webhooks.subscriptions s WHERE s.uuid = :subscriptionUuid AND NOT s.enabled)`,
});

/** A 410 Gone answer: the delivery failed for good (after disableSubscription, in its transaction). */
export const recordGone = sqlStatement<{ id: string; statusCode: number; error: string }>({
  name: 'deliveries.record-gone',
  parameters: ['id', 'statusCode', 'error'],
  sql: `UPDATE webhooks.deliveries SET status = 'failed', next_attempt_at = NULL, leased_until = NULL,
               last_response_code = :statusCode, last_error = left(:error, 1000)
         WHERE id = :id`,
});

type DeliveriesFilter = { tenantUuid: string; subscriptionUuid: string; status: string | null };

const DELIVERIES_LIST_FROM = `FROM webhooks.deliveries
         WHERE tenant_uuid = :tenantUuid AND subscription_uuid = :subscriptionUuid
           AND (:status::varchar IS NULL OR status = :status::varchar)`;

const DELIVERIES_LIST_KEY: readonly OrderedKeysetColumn[] = [
  { column: 'seq', parameter: 'cursorSeq', type: 'bigint', order: 'DESC' },
];

/** A listed delivery with its seq as cursor text (`cursor_key_0`), as pagedListStatements keys its rows. */
export type KeyedDeliveryRow = DeliveryRow & Record<`cursor_key_${number}`, string>;

/** A subscription's deliveries, newest first (by seq); its pages end at a horizon (deliveriesVisibleBelow). */
export const deliveriesList = pagedListStatements<DeliveriesFilter, DeliveryRow>({
  name: 'deliveries.list',
  select: COLUMNS,
  from: DELIVERIES_LIST_FROM,
  filterParameters: ['tenantUuid', 'subscriptionUuid', 'status'],
  key: DELIVERIES_LIST_KEY,
});

/** The last seq drawn, read by a list page before deliveriesVisibleBelow, as its `drawn`. */
export const deliveriesDrawnSeq = sqlStatement<Record<never, never>, { drawn: string }>({
  name: 'deliveries.drawn-seq',
  parameters: [],
  sql: `SELECT ${DRAWN_SEQ_SQL}::text AS drawn`,
});

/**
 * The horizon of the deliveries list, by a statement of its own after deliveriesDrawnSeq and before the page's:
 * `below`, a seq below which every delivery is readable by any later snapshot, or never will be; `held`, an insert in
 * flight may hold deliveries back from there on. It is the least of `drawn` + 1 and the lowest V + 1 among the
 * service's own transactions marked as inserting deliveries (MARK_CTE; pg_stat_activity, same application_name, no
 * other service writes the table). A seq up to `drawn` was drawn before `drawn` was read, by a transaction marked
 * before it drew: still in flight when this statement reads pg_stat_activity, it shows a V below that seq; no longer
 * shown, it has ended, and its rows are readable or never will be. A transaction that marks after that read read its V
 * after `drawn`: it draws only above `drawn`. A mark cut at 63 bytes, where pg_stat_activity cuts application_name,
 * loses digits of V, which only lowers it; one with no digits left counts as 0.
 */
export const deliveriesVisibleBelow = sqlStatement<{ drawn: string }, { below: string; held: boolean }>({
  name: 'deliveries.visible-below',
  parameters: ['drawn'],
  sql: `SELECT (least(:drawn::bigint, min(m.from_seq)) + 1)::text AS below,
               COALESCE(min(m.from_seq) < :drawn::bigint, false) AS held
          FROM (SELECT CASE WHEN substr(a.application_name, length(own.prefix) + 1) ~ '^[0-9]{1,18}$'
                            THEN substr(a.application_name, length(own.prefix) + 1)::bigint ELSE 0 END AS from_seq
                  FROM pg_stat_activity a,
                       (SELECT current_setting('application_name') || '${INSERTS_DELIVERIES}' AS prefix) own
                 WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
                   AND starts_with(a.application_name, left(own.prefix, 63))) m`,
});

/** A numbered page of deliveriesList (newest first) that starts below the horizon. */
export const deliveriesListBelow = sqlStatement<
  DeliveriesFilter & { below: string; limit: number; offset: number },
  KeyedDeliveryRow
>({
  name: 'deliveries.list:below',
  parameters: ['tenantUuid', 'subscriptionUuid', 'status', 'below', 'limit', 'offset'],
  sql: `SELECT ${COLUMNS}, ${cursorKeySelect(DELIVERIES_LIST_KEY)}
       ${DELIVERIES_LIST_FROM}
          AND seq < :below::bigint
        ORDER BY seq DESC
        LIMIT :limit OFFSET :offset`,
});

/** Whether deliveries at or above the horizon are readable: newer than a page of deliveriesListBelow, held back. */
export const deliveriesHeldBack = sqlStatement<DeliveriesFilter & { below: string }, { held_back: boolean }>({
  name: 'deliveries.list:held-back',
  parameters: ['tenantUuid', 'subscriptionUuid', 'status', 'below'],
  sql: `SELECT EXISTS (SELECT 1 ${DELIVERIES_LIST_FROM} AND seq >= :below::bigint) AS held_back`,
});

/** Sends a delivery again now (a failed one is pending again; a delivered one is sent once more). */
export const retryDelivery = sqlStatement<
  { tenantUuid: string; subscriptionUuid: string; id: string },
  DeliveryRow
>({
  name: 'deliveries.retry',
  parameters: ['tenantUuid', 'subscriptionUuid', 'id'],
  sql: `UPDATE webhooks.deliveries SET status = 'pending', next_attempt_at = now(), delivered_at = NULL
         WHERE tenant_uuid = :tenantUuid AND subscription_uuid = :subscriptionUuid AND id = :id
        RETURNING ${COLUMNS}`,
});

/**
 * At most one `charging_session.updated` per session per interval: true when this update is the first of its
 * interval (and then it is the session's last sent one).
 */
export const claimSessionUpdate = sqlStatement<
  { tenantUuid: string; controllerUuid: string; transactionId: string; at: Date; intervalMs: number },
  { claimed: boolean }
>({
  name: 'deliveries.claim-session-update',
  parameters: ['tenantUuid', 'controllerUuid', 'transactionId', 'at', 'intervalMs'],
  sql: `INSERT INTO webhooks.session_updates AS u (tenant_uuid, controller_uuid, transaction_id, last_sent_at)
        VALUES (:tenantUuid, :controllerUuid, :transactionId, :at)
        ON CONFLICT (tenant_uuid, controller_uuid, transaction_id) DO UPDATE SET last_sent_at = EXCLUDED.last_sent_at
         WHERE u.last_sent_at <= EXCLUDED.last_sent_at - :intervalMs * interval '1 millisecond'
        RETURNING true AS claimed`,
});

/** A session that ended needs no throttle row any more. */
export const forgetSession = sqlStatement<{
  tenantUuid: string;
  controllerUuid: string;
  transactionId: string;
}>({
  name: 'deliveries.forget-session',
  parameters: ['tenantUuid', 'controllerUuid', 'transactionId'],
  sql: `DELETE FROM webhooks.session_updates
         WHERE tenant_uuid = :tenantUuid AND controller_uuid = :controllerUuid AND transaction_id = :transactionId`,
});

/** For the SQL snapshots. */
export const DELIVERIES_STATEMENTS = [
  fanOutEvents,
  insertPing,
  claimDueDeliveries,
  releaseClaims,
  recordOutcomes,
  disableSubscription,
  failPendingOfDisabled,
  recordGone,
  ...deliveriesList.all,
  deliveriesDrawnSeq,
  deliveriesVisibleBelow,
  deliveriesListBelow,
  deliveriesHeldBack,
  retryDelivery,
  claimSessionUpdate,
  forgetSession,
];
