import pg from 'pg';
import { QueryFailedError } from 'typeorm';

interface PgError {
  code?: string;
  constraint?: string;
}

/** PostgreSQL's error: wrapped by TypeORM's own queries, as pg throws it from runStatement's. */
function pgError(error: unknown): PgError | undefined {
  if (error instanceof QueryFailedError)
    return (error as QueryFailedError & { driverError?: PgError }).driverError;
  return error instanceof pg.DatabaseError ? error : undefined;
}

/** A unique index was hit; with `constraint`, only that index counts. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = pgError(error);
  return driverError?.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return pgError(error)?.code === '23503';
}

/** SQLSTATE class 22, a data exception: a value PostgreSQL cannot take, which no retry will change. */
export function isDataException(error: unknown): boolean {
  return pgError(error)?.code?.startsWith('22') === true;
}

/** SQLSTATE class 23, an integrity constraint violation (NOT NULL, foreign key, unique, check). */
export function isIntegrityConstraintViolation(error: unknown): boolean {
  return pgError(error)?.code?.startsWith('23') === true;
}
