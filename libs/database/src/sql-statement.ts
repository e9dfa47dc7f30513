import type { DataSource, EntityManager } from 'typeorm';
import { type PlainQuery, runQuery } from './pool-query.js';

/** The values of a statement's named parameters. */
export type SqlParameters = object;

/**
 * One SQL statement, written with named parameters (`:tenantUuid`) and sent to PostgreSQL with positional ones
 * (`$1`…`$n`, in the order of `parameters`): the one place where names meet positions.
 */
export interface SqlStatement<TParams extends SqlParameters = SqlParameters, TRow = unknown> {
  /** Names the statement in snapshots and, when `prepared`, as PostgreSQL's prepared statement. */
  readonly name: string;
  /**
   * Parsed once per connection under its name (see poolQuery), planned for its values five times, then with a generic
   * plan PostgreSQL keeps until a table it reads is analysed: only for statements run often whose generic plan holds
   * for any values, and whose tables a TableStatisticsKeeper analyses as they grow (made on a small table, a kept plan
   * scans the table once it has grown).
   */
  readonly prepared: boolean;
  readonly parameters: readonly (keyof TParams & string)[];
  /** The SQL PostgreSQL receives. */
  readonly text: string;
  /** The query for these values (named when prepared). */
  query(params: TParams): PlainQuery;
  /** Only carries the type of the rows it returns. */
  readonly row?: TRow;
}

export interface SqlStatementDefinition<TParams extends SqlParameters> {
  name: string;
  prepared?: boolean;
  /** Each named parameter once; its place in this list is its position (`$1` first). */
  parameters: readonly (keyof TParams & string)[];
  /** SQL with `:name` placeholders (outside string literals and quoted identifiers; `::type` stays a cast). */
  sql: string;
}

/**
 * Defines a statement taking TParams and returning TRow rows; throws when the SQL and `parameters` do not name the same
 * parameters.
 */
export function sqlStatement<TParams extends SqlParameters = Record<never, never>, TRow = unknown>(
  definition: SqlStatementDefinition<TParams>,
): SqlStatement<TParams, TRow> {
  const { name, parameters } = definition;
  const prepared = definition.prepared ?? false;
  const text = toPositional(definition.sql, parameters, name);
  return {
    name,
    prepared,
    parameters,
    text,
    query(params: TParams): PlainQuery {
      const values = parameters.map((parameter) => {
        if (!(parameter in params)) throw new Error(`statement ${name}: no value for :${parameter}`);
        return params[parameter];
      });
      return prepared ? { name, text, values } : { text, values };
    },
  };
}

/**
 * `sql` with each `:name` replaced by `$<its position in parameters + 1>`. String literals ('…', '' inside),
 * quoted identifiers ("…") and casts (`::`) are left as they are.
 */
export function toPositional(
  sql: string,
  parameters: readonly string[],
  statementName = 'statement',
): string {
  const positions = new Map(parameters.map((parameter, index) => [parameter, index + 1]));
  if (positions.size !== parameters.length) throw new Error(`${statementName}: a parameter is listed twice`);
  const used = new Set<string>();
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const char = sql[i];
    if (char === "'" || char === '"') {
      let end = i + 1;
      for (;;) {
        end = sql.indexOf(char, end);
        if (end === -1) throw new Error(`${statementName}: unterminated ${char}`);
        if (sql[end + 1] === char) end += 2;
        else break;
      }
      out += sql.slice(i, end + 1);
      i = end + 1;
    } else if (char === ':' && sql[i + 1] === ':') {
      out += '::';
      i += 2;
    } else if (char === ':' && /[A-Za-z]/.test(sql[i + 1] ?? '')) {
      const match = /^[A-Za-z][A-Za-z0-9_]*/.exec(sql.slice(i + 1))!;
      const parameter = match[0];
      const position = positions.get(parameter);
      if (position === undefined)
        throw new Error(`${statementName}: :${parameter} is not a listed parameter`);
      used.add(parameter);
      out += `$${position}`;
      i += 1 + parameter.length;
    } else {
      out += char;
      i += 1;
    }
  }
  const unused = parameters.filter((parameter) => !used.has(parameter));
  if (unused.length > 0)
    throw new Error(`${statementName}: ${unused.map((p) => `:${p}`).join(', ')} never used`);
  return out;
}

/**
 * Runs a statement in the caller's transaction when `runner` is a transaction's EntityManager, else on the pool;
 * prepared by its name when it says so. Returns the rows, RETURNING's included.
 */
export function runStatement<TParams extends SqlParameters, TRow>(
  runner: DataSource | EntityManager,
  statement: SqlStatement<TParams, TRow>,
  params: TParams,
): Promise<TRow[]> {
  return runQuery<TRow>(runner, statement.query(params));
}
