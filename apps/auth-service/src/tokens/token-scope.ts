import { INVALID_SCOPE_ERROR_KEY, permissionGranted } from '@cpc/contracts';
import { InvalidTokenRequestError } from '@cpc/errors';

/**
 * The permissions an RFC 6749 `scope` narrows a token to: each asked-for permission must be covered by one that is
 * held (`control:commands:list` by `control`, anything by `*`), otherwise the request is refused with 400
 * `invalid_scope` on `scope`, so a scope never widens a token. Absent: null, every held permission.
 */
export function narrowedScope(
  held: readonly string[],
  requested: readonly string[] | undefined,
): string[] | null {
  if (requested === undefined) return null;
  const outside = requested.filter((permission) => !permissionGranted(held, permission));
  if (outside.length > 0) {
    throw new InvalidTokenRequestError([
      {
        errorKey: INVALID_SCOPE_ERROR_KEY,
        message: `scope asks for permissions the account does not hold: ${outside.join(' ')}`,
        parameter: 'scope',
      },
    ]);
  }
  return [...new Set(requested)];
}

/** What a token carries: the role's permissions, or the family's scope as far as the role still covers it. */
export function tokenPermissions(
  rolePermissions: readonly string[],
  scope: readonly string[] | null,
): string[] {
  return scope === null
    ? [...rolePermissions]
    : scope.filter((permission) => permissionGranted(rolePermissions, permission));
}
