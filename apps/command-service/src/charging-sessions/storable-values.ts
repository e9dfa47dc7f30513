/**
 * What PostgreSQL can store of the numbers and times a charge point reports. The gateway passes on whatever the OCPP
 * schemas allow, and they bound little: 1.6 meter readings and connector ids are any integers, 2.0.1 EVSE ids too, and
 * `format: date-time` takes the year 0000 that PostgreSQL does not have.
 */

/** numeric(16, 3): every reading of a session and its peak power must round to less than 10^13 in absolute value. */
const READING_LIMIT = 1e13;
const INTEGER_MAX = 2 ** 31 - 1;

/** A reading (Wh, W) as the session columns take it; null when there is none or it does not fit. */
export function storableReading(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.abs(Math.round(value * 1000) / 1000) < READING_LIMIT ? value : null;
}

/** A connector or EVSE id as the integer columns (>= 0) take it; null when there is none or it does not fit. */
export function storableId(value: unknown): number | null {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= INTEGER_MAX
    ? (value as number)
    : null;
}

/** A date-time whose seconds are 60 (and a fraction): a leap second, the minute before a zone. */
const LEAP_SECOND = /^(\d{4}-\d\d-\d\dT\d\d:\d\d):60(\.\d+)?([zZ]|[+-]\d\d(?::?\d\d)?)$/;

/**
 * A reported time with a leap second (`23:59:60`, which OCPP's date-time format takes) as the instant one second
 * after its :59, the next minute's :00, as PostgreSQL reads `:60` (it refuses `:60.5`, and JavaScript any `:60`);
 * any other value as it is.
 */
export function withoutLeapSecond<T>(value: T): T | string {
  const leap = typeof value === 'string' ? LEAP_SECOND.exec(value) : null;
  if (!leap) return value;
  const [, minute, fraction = '', zone] = leap;
  const time = Date.parse(`${minute}:59${fraction}${zone}`);
  return Number.isFinite(time) ? new Date(time + 1000).toISOString() : value;
}

/** A date-time PostgreSQL's timestamptz takes: one JavaScript reads, of the years 1 to 9999 in UTC. */
export function isStorableTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const time = Date.parse(value);
  if (!Number.isFinite(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}
