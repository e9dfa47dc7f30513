/**
 * How anything thrown is described, for a log line or a reason: an Error by its message (with `stack`, by its stack
 * when it has one: for failures nobody expected), anything else as a string.
 */
export function describeError(error: unknown, options: { stack?: boolean } = {}): string {
  if (!(error instanceof Error)) return String(error);
  return options.stack ? (error.stack ?? error.message) : error.message;
}
