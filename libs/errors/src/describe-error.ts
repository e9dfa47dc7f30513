/**
 * How anything thrown is described in a log line or a reason, when the failure is one the code expects (a broker or
 * database away, a peer's refusal): an Error by its message, anything else as a string. Failures nobody expected are
 * logged with describeErrorForLog (@cpc/logging): the stack, and of a query error its SQL without the values.
 */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
