/**
 * Whether granted permissions cover a required one. A grant covers itself and everything below it:
 * `control:commands` covers `control:commands:list`, `control` covers both, `*` covers all.
 */
export function permissionGranted(grants: readonly string[], required: string): boolean {
  return grants.some((grant) => grant === '*' || grant === required || required.startsWith(`${grant}:`));
}
