import { createHash } from 'node:crypto';
import type { ReserveParameters } from './command-parameters.js';

/**
 * The OCPP integer id a command uses where the mapping says "generated" (1.6/2.0.1 ReserveNow reservation id when
 * none is given, 2.0.1 requestId of UpdateFirmware/GetLog/GetBaseReport, 2.0.1 remoteStartId).
 *
 * Derived from the command uuid alone, so a redelivery of the same command builds the same payload: the first four
 * bytes of SHA-256(lower-case uuid), as an unsigned big-endian integer, with the top bit cleared (a positive int32);
 * 0 becomes 1. Hashing the whole uuid keeps ids spread for time-ordered uuids (v7) too. Two commands share an id with
 * probability 2^-31 per pair: negligible among the reservations and requests live on one charge point at a time.
 */
export function ocppIdFromCommandUuid(commandUuid: string): number {
  const id = createHash('sha256').update(commandUuid.toLowerCase()).digest().readUInt32BE(0) & 0x7fff_ffff;
  return id === 0 ? 1 : id;
}

/** The reservation id a reserve command sends: the one given, or the generated one. Needed to cancel it later. */
export function reservationIdFor(
  parameters: Pick<ReserveParameters, 'reservation_id'>,
  commandUuid: string,
): number {
  return parameters.reservation_id ?? ocppIdFromCommandUuid(commandUuid);
}
