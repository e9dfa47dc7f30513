import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';

/** A compare-and-set of a KV key (create, update or delete at a revision) that found the key moved on. */
export function isKvConflict(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}
