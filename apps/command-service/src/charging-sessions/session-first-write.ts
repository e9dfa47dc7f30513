import { isUniqueViolation } from '@cpc/database';

/** The unique indexes two first writes of one session can meet on. */
const SESSION_KEYS = ['charging_sessions_pkey', 'charging_sessions_transaction_start_key'];

/**
 * Runs a write that creates a session when it is new. The writes find the session of an event first (by its
 * transaction id and its start or time), then upsert on its uuid; two first writes of one session at the same instant
 * both find none and insert: the later waits for the earlier and then takes its row through the uuid (the same one,
 * derived from the transaction), or fails on the key of transaction id and start when they chose different uuids.
 * Run again, it finds the row just committed, so the event applies at once instead of failing until its redelivery.
 */
export async function writingNewSession<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!SESSION_KEYS.some((key) => isUniqueViolation(error, key))) throw error;
    return write();
  }
}
