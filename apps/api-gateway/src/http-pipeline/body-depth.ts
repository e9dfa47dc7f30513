/**
 * How deeply a request body may nest objects and arrays. The DTO transformation and validation recurse once per level
 * without a bound: a few kilobytes of nested arrays overflowed the call stack (a 500). No body of the API nests
 * anywhere near this deep.
 */
export const MAX_BODY_DEPTH = 32;

/** Whether a parsed JSON value nests objects and arrays deeper than `maxDepth` (walked without recursion). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return true;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return false;
}
