/**
 * What of a failed SQL statement may reach a log line: its text and PostgreSQL's error code (with the names of the
 * constraint, table and column involved). Never the statement's parameters, and never PostgreSQL's message or detail,
 * which quote values ("invalid input syntax for type uuid: \"<value>\"", "Key (email)=(<value>) already exists").
 */
export interface LoggableQueryError {
  type: string;
  code?: string;
  query?: string;
  constraint?: string;
  table?: string;
  column?: string;
}

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A pg DatabaseError (it carries PostgreSQL's `severity`) or a TypeORM QueryFailedError (it wraps one). */
function databaseErrorOf(error: Fields): Fields | undefined {
  if (typeof error.driverError === 'object' && error.driverError !== null) return error.driverError as Fields;
  if (typeof error.severity === 'string' && typeof error.code === 'string') return error;
  return undefined;
}

/** The loggable part of a query error, or undefined when `error` is not one. */
export function loggableQueryError(error: unknown): LoggableQueryError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const fields = error as Fields;
  const database = databaseErrorOf(fields);
  if (!database && fields.name !== 'QueryFailedError') return undefined;
  const loggable: LoggableQueryError = { type: text(fields.name) ?? 'DatabaseError' };
  const entries: [keyof LoggableQueryError, string | undefined][] = [
    ['code', text(database?.code)],
    ['query', text(fields.query)],
    ['constraint', text(database?.constraint)],
    ['table', text(database?.table)],
    ['column', text(database?.column)],
  ];
  for (const [key, value] of entries) if (value !== undefined) loggable[key] = value;
  return loggable;
}

/** One line for a log message: query errors as their code and SQL text only, other errors by their stack. */
export function describeErrorForLog(error: unknown): string {
  const query = loggableQueryError(error);
  if (query) {
    const where = query.constraint ? ` on ${query.constraint}` : '';
    return `${query.type} (SQLSTATE ${query.code ?? 'unknown'}${where})${query.query ? `: ${query.query}` : ''}`;
  }
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
