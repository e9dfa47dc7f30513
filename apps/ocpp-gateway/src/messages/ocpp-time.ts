/** A zone at the end of a date-time: `Z`, or an offset such as `+01:00` (RFC 3339; ISO 8601 also allows `+0100`). */
const ZONE = /(?:z|[+-]\d\d(?::?\d\d)?)$/i;

/**
 * A charge point's date-time as an instant every consumer reads alike. ocpp-rpc's date-time format also takes one
 * without a zone (`2026-03-01T08:00:00`), which PostgreSQL would read in its server's TimeZone and Node in the
 * process's; OCPP's times are UTC, so such a time gets `Z`. One with a zone is passed on as sent.
 */
export function utcTime(time: string): string {
  return ZONE.test(time) ? time : `${time}Z`;
}
