import { isUniqueViolation } from '@cpc/database';
import { ValidationFailedError } from '@cpc/errors';

/** Shapes the management console accepts; checked before anything is written. */
export const TENANT_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{2,127}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requireMatch(parameter: string, value: string, pattern: RegExp, expectation: string): void {
  if (!pattern.test(value))
    throw ValidationFailedError.single(parameter, 'invalid_format', `${parameter} must be ${expectation}`);
}

export function requireEmail(email: string): void {
  if (email.length < 4 || email.length > 128 || !EMAIL_PATTERN.test(email)) {
    throw ValidationFailedError.single(
      'email',
      'invalid_format',
      'email must be an e-mail address of 4 to 128 characters',
    );
  }
}

/** The token endpoint accepts passwords of 4 to 128 characters; a console password must be usable there. */
export function requirePassword(password: string): void {
  if (password.length < 8 || password.length > 128) {
    throw ValidationFailedError.single(
      'password',
      'invalid_length',
      'password must be 8 to 128 characters long',
    );
  }
}

export function alreadyExists(parameter: string, what: string): ValidationFailedError {
  return ValidationFailedError.single(parameter, 'already_exists', `${what} already exists`);
}

/** Runs `change`; a unique violation in it is answered as 422 already_exists on `parameter`. */
export async function refusingDuplicates<T>(
  parameter: string,
  what: string,
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(parameter, what);
    throw error;
  }
}
