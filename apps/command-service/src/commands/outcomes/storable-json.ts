/** What a NUL character becomes in stored JSON: the Unicode replacement character. */
export const NUL_REPLACEMENT = '\uFFFD';

/** How JSON.stringify writes a NUL character (it always escapes it, in keys as in values). */
const NUL_ESCAPE = '\\u0000';

/**
 * `value` as JSON text that PostgreSQL's jsonb can hold: JSON allows the escape \u0000 in any string, jsonb refuses it
 * ("unsupported Unicode escape sequence"), so every NUL character in a string or a key becomes U+FFFD. Text without
 * one (nearly every answer) is returned as JSON.stringify wrote it; undefined for what JSON.stringify cannot write.
 */
export function storableJson(value: unknown): string | undefined {
  const text = JSON.stringify(value);
  // A literal backslash followed by u0000 also matches: then the walk finds nothing to replace, which costs only time.
  if (text === undefined || !text.includes(NUL_ESCAPE)) return text;
  return JSON.stringify(withoutNul(JSON.parse(text)));
}

/** A parsed JSON value (plain strings, arrays and objects only) with every NUL replaced. */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('\u0000', NUL_REPLACEMENT);
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key.replaceAll('\u0000', NUL_REPLACEMENT),
        withoutNul(entry),
      ]),
    );
  }
  return value;
}
