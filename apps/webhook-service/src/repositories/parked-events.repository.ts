import { sqlStatement } from '@cpc/database';

/**
 * The statements of webhooks.parked_events: events whose fan-out failed eventAttemptsBeforeParking times, kept here
 * (acknowledged in the stream) and retried on the delivery schedule until their rows are written or they fail for
 * good. A pending one holds back the later rows of its ordering key (see claimDueDeliveries).
 */

export interface ParkedEventRow {
  stream_seq: string;
  subject: string;
  envelope: string;
  attempts: number;
  created_at: Date;
}

/** Sets an event aside; a second park of the same event (a redelivery after a crash) changes nothing. */
export const parkEvent = sqlStatement<{
  streamSeq: number;
  subject: string;
  envelope: string;
  orderingKey: string | null;
  attempts: number;
  error: string;
  nextAttemptAt: Date;
}>({
  name: 'parked-events.park',
  parameters: ['streamSeq', 'subject', 'envelope', 'orderingKey', 'attempts', 'error', 'nextAttemptAt'],
  sql: `INSERT INTO webhooks.parked_events
              (stream_seq, subject, envelope, ordering_key, attempts, last_error, next_attempt_at)
       VALUES (:streamSeq, :subject, :envelope, :orderingKey, :attempts, left(:error, 1000), :nextAttemptAt)
       ON CONFLICT (stream_seq) DO NOTHING`,
});

/** Due parked events, oldest first, hidden from other replicas for the lease while they are tried again. */
export const claimParkedEvents = sqlStatement<{ limit: number; leaseMs: number }, ParkedEventRow>({
  name: 'parked-events.claim',
  parameters: ['limit', 'leaseMs'],
  sql: `UPDATE webhooks.parked_events p
           SET attempts = p.attempts + 1, next_attempt_at = now() + :leaseMs * interval '1 millisecond'
         WHERE p.stream_seq IN (SELECT stream_seq FROM webhooks.parked_events
                                 WHERE status = 'pending' AND next_attempt_at <= now()
                                 ORDER BY stream_seq
                                 LIMIT :limit
                                 FOR UPDATE SKIP LOCKED)
        RETURNING p.stream_seq, p.subject, p.envelope, p.attempts, p.created_at`,
});

/** Its rows are written: it holds nothing back any more. */
export const releaseParkedEvent = sqlStatement<{ streamSeq: string }>({
  name: 'parked-events.release',
  parameters: ['streamSeq'],
  sql: `DELETE FROM webhooks.parked_events WHERE stream_seq = :streamSeq`,
});

/** Failed again: tried at `nextAttemptAt`, or (null) never again: failed for good, its ordering key moves on. */
export const recordParkedEventFailure = sqlStatement<{
  streamSeq: string;
  error: string;
  nextAttemptAt: Date | null;
}>({
  name: 'parked-events.record-failure',
  parameters: ['streamSeq', 'error', 'nextAttemptAt'],
  sql: `UPDATE webhooks.parked_events
           SET last_error = left(:error, 1000), next_attempt_at = :nextAttemptAt::timestamptz,
               status = CASE WHEN :nextAttemptAt::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
               failed_at = CASE WHEN :nextAttemptAt::timestamptz IS NULL THEN now() END
         WHERE stream_seq = :streamSeq`,
});

/** For the SQL snapshots. */
export const PARKED_EVENTS_STATEMENTS = [
  parkEvent,
  claimParkedEvents,
  releaseParkedEvent,
  recordParkedEventFailure,
];
