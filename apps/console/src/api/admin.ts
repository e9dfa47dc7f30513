import { ApiError, describeError, errorsByTopField } from './errors';

/** libs/contracts' LAST_SUPER_ADMIN_ERROR_KEY, repeated: the console imports types only from the server side. */
const LAST_SUPER_ADMIN_ERROR_KEY = 'last_super_admin';

/**
 * A role's permissions as typed in the console: one a line (commas and spaces separate, too), blanks dropped, each
 * kept once in the order first typed.
 */
export function parsePermissions(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((permission) => permission.trim())
        .filter(Boolean),
    ),
  ];
}

export function formatPermissions(permissions: readonly string[]): string {
  return permissions.join('\n');
}

/**
 * The admin API's refusals in words: the 422 `last_super_admin` (the tenant would lose its last enabled holder of
 * `*`) and the 403 of a grant beyond the caller's own permissions, each with what to do; others as everywhere.
 */
export function describeAdminError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 422 && error.issues.some((issue) => issue.errorKey === LAST_SUPER_ADMIN_ERROR_KEY)) {
      return (
        'Refused: this would leave the tenant without an enabled user holding every permission (*). ' +
        'Give another user a role with * first.'
      );
    }
    if (error.status === 403 && error.apiMessage) {
      return (
        `Refused: you cannot grant or change more than you hold yourself (${error.apiMessage}). ` +
        'Ask someone whose role holds those permissions.'
      );
    }
  }
  return describeError(error);
}

/**
 * The validation messages of a 422 by the form field they belong to: `permissions.3` belongs to `permissions`; the
 * `last_super_admin` item (parameter `uuid`) belongs to no field and is said in words above the form instead.
 */
export function adminFieldErrors(error: unknown): Record<string, string> {
  return errorsByTopField(error, (issue) => issue.errorKey === LAST_SUPER_ADMIN_ERROR_KEY);
}
