import { QueryFailedError } from 'typeorm';

interface PgError {
  code?: string;
  constraint?: string;
}

function pgError(error: unknown): PgError | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  return (error as QueryFailedError & { driverError?: PgError }).driverError;
}

/** A unique index was hit; with `constraint`, only that index counts. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = pgError(error);
  return driverError?.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return pgError(error)?.code === '23503';
}
