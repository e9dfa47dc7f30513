import { isUniqueViolation } from '@cpc/database';

/**
 * Runs a write that creates a session when it is new (an upsert arbitrated on the session's key). The upserts insert
 * the uuid derived from that key, so two first writes of one session that pass the key's check at the same instant
 * meet on the primary key instead, which is no arbiter: the later fails. Run again, it finds the row just committed
 * through the key and updates it, so the event applies at once instead of failing until its redelivery.
 */
export async function writingNewSession<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error, 'charging_sessions_pkey')) throw error;
    return write();
  }
}
