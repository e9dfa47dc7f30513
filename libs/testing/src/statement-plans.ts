import type { DataSource, QueryRunner } from 'typeorm';

/** The parts of an EXPLAIN (ANALYZE, FORMAT JSON) plan node that count the rows a statement read. */
interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

export type PlanCacheMode = 'force_generic_plan' | 'force_custom_plan';

/** Rows the plan read from `relation` (its table name): rows returned plus rows filtered out, times loops. */
function rowsReadFrom(node: PlanNode, relation: string): number {
  const own =
    node['Relation Name'] === relation
      ? (node['Actual Rows'] +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        node['Actual Loops']
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsReadFrom(child, relation), 0);
}

/** A value as an SQL literal (arrays as array literals, anything else but text as JSON), for EXECUTE. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = Array.isArray(value)
    ? `{${value.map((element) => (element === null ? 'NULL' : `"${String(element).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Runs `sql` as a prepared statement (as the services do), with a generic or a custom plan, inside a transaction
 * that is rolled back; returns the rows it read from the table `relation` and the rows it returned. For specs that
 * bound what a statement reads when the statistics mislead the planner.
 */
export async function measureStatementPlan(
  dataSource: DataSource,
  statement: { text: string; values: unknown[] },
  relation: string,
  planCacheMode: PlanCacheMode,
): Promise<{ read: number; returned: number }> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query(`SET LOCAL plan_cache_mode = ${planCacheMode}`);
    await runner.query(`PREPARE measured AS ${statement.text}`);
    return await explainExecuted(runner, 'measured', statement.values, relation);
  } finally {
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.query('DEALLOCATE ALL').catch(() => undefined);
    await runner.release();
  }
}

/**
 * Runs the statement prepared as `name` on the runner's session with `values`, with the plan the session has for it
 * (a generic plan it keeps, say), inside a transaction that is rolled back; returns the rows it read from the table
 * `relation` and the rows it returned.
 */
export async function measurePreparedPlan(
  runner: QueryRunner,
  name: string,
  values: unknown[],
  relation: string,
): Promise<{ read: number; returned: number }> {
  await runner.startTransaction();
  try {
    return await explainExecuted(runner, name, values, relation);
  } finally {
    await runner.rollbackTransaction();
  }
}

async function explainExecuted(
  runner: QueryRunner,
  name: string,
  values: unknown[],
  relation: string,
): Promise<{ read: number; returned: number }> {
  // EXPLAIN takes no bind parameters: the values go in as literals, coerced to the statement's parameter types.
  const [{ 'QUERY PLAN': plans }] = (await runner.query(
    `EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE ${name}(${values.map(literal).join(', ')})`,
  )) as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
  return { read: rowsReadFrom(plans[0].Plan, relation), returned: plans[0].Plan['Actual Rows'] };
}
