/**
 * Lengths as PostgreSQL counts them in varchar(n): characters (code points), not UTF-16 units. Cutting by UTF-16 units
 * could split a surrogate pair, and the lone half left makes jsonb refuse the whole value (a data exception).
 */

/** `value` cut to at most `max` characters, never inside one. */
export function truncateCodePoints(value: string, max: number): string {
  // At most `max` UTF-16 units is at most `max` characters: the common case costs nothing.
  if (value.length <= max) return value;
  let end = 0;
  for (let count = 0; count < max && end < value.length; count += 1)
    end += (value.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return value.slice(0, end);
}

/** Whether `value` is a string of at most `max` characters, so a varchar(max) column takes it. */
export function isTextOfAtMost(value: unknown, max: number): value is string {
  if (typeof value !== 'string') return false;
  return value.length <= max || truncateCodePoints(value, max).length === value.length;
}
