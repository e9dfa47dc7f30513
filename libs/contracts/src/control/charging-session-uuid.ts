import { createHash } from 'node:crypto';

/** The namespace of charging session uuids (RFC 9562 name-based, version 5). */
const CHARGING_SESSION_NAMESPACE = '5b0e0c36-8a3e-4c55-9d53-0b1f2f6c7a41';

/**
 * The uuid of the charging session of one OCPP transaction: derived from what names the transaction (tenant,
 * controller, the transaction id as the charge point's events carry it), a version-5 uuid, so every service that sees
 * the transaction's events (command-service, which keeps the session; webhook-service, which reports it) knows the
 * session's uuid without asking. Sessions written before it was derived keep the random uuid they were given.
 */
export function chargingSessionUuidOf(
  tenantUuid: string,
  controllerUuid: string,
  ocppTransactionId: string,
): string {
  const hash = createHash('sha1')
    .update(Buffer.from(CHARGING_SESSION_NAMESPACE.replaceAll('-', ''), 'hex'))
    .update(`${tenantUuid.toLowerCase()}/${controllerUuid.toLowerCase()}/${ocppTransactionId}`, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
