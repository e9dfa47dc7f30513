/**
 * The public API's rule for unset fields, as a JSON.stringify replacer: a property whose value is null is left out
 * (at every depth); a null inside an array keeps its place. api-gateway's answers and the webhook bodies that repeat
 * them follow it (docs/api.md, Conventions).
 */
export function leaveOutUnsetFields(this: unknown, _key: string, value: unknown): unknown {
  return value === null && !Array.isArray(this) ? undefined : value;
}
