import { sqlStatement } from '@cpc/database';

/**
 * The statements that keep control.meter_values partitioned by month (MeterValuePartitions). A month's table is named
 * after the month (`meter_values_p2026_11`), and PostgreSQL takes no parameters for names or partition bounds: the
 * statements naming a month's table are built per month, from the month alone, never from input.
 */

/** One partition maintenance at a time, across instances, until the transaction ends ('mvpt' in ASCII). */
export const lockPartitionMaintenance = sqlStatement({
  name: 'meter-value-partitions.lock',
  parameters: [],
  sql: 'SELECT pg_advisory_xact_lock(1836478580)',
});

/** The month partitions attached now (the default partition's name does not match a month's). */
export const attachedPartitions = sqlStatement<Record<never, never>, { relname: string }>({
  name: 'meter-value-partitions.attached',
  parameters: [],
  sql: `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'control.meter_values'::regclass`,
});

/** The rows of months past the retention that the default partition holds (dropped months take theirs along). */
export const deleteExpiredDefaultRows = sqlStatement<{ before: string }>({
  name: 'meter-value-partitions.delete-expired-default-rows',
  parameters: ['before'],
  sql: 'DELETE FROM control.meter_values_default WHERE sampled_at < :before',
});

/** A month's partition, `from` and `to` its bounds (ISO 8601, the first instants of the month and the next). */
export interface MonthPartition {
  table: string;
  from: string;
  to: string;
}

/**
 * Creating a month: its table, the rows the default partition holds of that month moved into it, then the table
 * attached (attaching a month the default partition still has rows of would fail).
 */
export function createMonthPartition({ table, from, to }: MonthPartition) {
  return {
    create: sqlStatement({
      name: 'meter-value-partitions.create-table',
      parameters: [],
      sql: `CREATE TABLE control.${table} (LIKE control.meter_values INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`,
    }),
    moveDefaultRows: sqlStatement<{ from: string; to: string }>({
      name: 'meter-value-partitions.move-default-rows',
      parameters: ['from', 'to'],
      sql: `WITH moved AS (
              DELETE FROM control.meter_values_default WHERE sampled_at >= :from AND sampled_at < :to RETURNING *)
            INSERT INTO control.${table} SELECT * FROM moved`,
    }),
    attach: sqlStatement({
      name: 'meter-value-partitions.attach',
      parameters: [],
      sql: `ALTER TABLE control.meter_values ATTACH PARTITION control.${table}
              FOR VALUES FROM ('${from}') TO ('${to}')`,
    }),
  };
}

/** Dropping a month past the retention, its rows with it. */
export function dropMonthPartition(table: string) {
  return sqlStatement({
    name: 'meter-value-partitions.drop-table',
    parameters: [],
    sql: `DROP TABLE control.${table}`,
  });
}

const EXAMPLE_MONTH: MonthPartition = {
  table: 'meter_values_p2026_11',
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-12-01T00:00:00.000Z',
};

/** For the SQL snapshots: the fixed statements and those of one month. */
export const METER_VALUE_PARTITIONS_STATEMENTS = [
  lockPartitionMaintenance,
  attachedPartitions,
  deleteExpiredDefaultRows,
  ...Object.values(createMonthPartition(EXAMPLE_MONTH)),
  dropMonthPartition(EXAMPLE_MONTH.table),
];
