/** ISO 8601 in UTC with seconds precision and `Z`, as the spec writes date-times: 2025-05-04T10:20:30Z. */
export function toIsoSeconds(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function toIsoSecondsOrNull(value: Date | null): string | null {
  return value ? toIsoSeconds(value) : null;
}

/** The UTC calendar date, YYYY-MM-DD. */
export function toDateOnly(value: Date): string {
  return value.toISOString().slice(0, 10);
}
