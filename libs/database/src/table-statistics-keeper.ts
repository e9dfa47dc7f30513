import {
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { describeError } from '@cpc/errors';
import { DataSource } from 'typeorm';
import { runQuery } from './pool-query.js';
import { sqlStatement } from './sql-statement.js';

export interface TableStatisticsKeeperOptions {
  /** Schema-qualified tables whose statistics the service's prepared statements depend on. */
  tables: readonly string[];
  /** How often each table's size is compared with the size its statistics were taken at. */
  checkIntervalMs: number;
  /** Below this size (pages of 8 KiB) a table's statistics are left alone: plans barely differ there. */
  minPages: number;
}

/**
 * The tables that have at least doubled (and reached :minPages) since their statistics were last taken (`relpages`,
 * set by ANALYZE and VACUUM), each with whether this role may analyse it (as its owner: PostgreSQL skips the table
 * with a warning otherwise).
 */
const grownTables = sqlStatement<
  { tables: string[]; minPages: number },
  { table_name: string; owned: boolean }
>({
  name: 'statistics.grown-tables',
  parameters: ['tables', 'minPages'],
  sql: `SELECT table_name, pg_has_role(relowner, 'USAGE') AS owned
          FROM (SELECT t.table_name, c.relowner, c.relpages,
                       (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages
                  FROM unnest(:tables::text[]) AS t(table_name)
                  JOIN pg_class c ON c.oid = t.table_name::regclass) AS sized
         WHERE pages >= :minPages AND pages >= 2 * relpages`,
});

/**
 * Takes a table's statistics anew (ANALYZE) whenever it has doubled since they were last taken, by this instance,
 * another one or autovacuum. A prepared statement is planned for its values five times; then PostgreSQL keeps a generic
 * plan per connection until a table it reads is analysed. A generic plan made while a table was a few pages (a new
 * database) reads it whole, and without an ANALYZE it would be kept however large the table grows (autovacuum may be
 * off, or behind); made again at every doubling, a plan never serves a table more than twice the size it was made
 * for. Replicas may check at the same time: the statistics show an ANALYZE another one has finished, and one still
 * running is skipped (SKIP_LOCKED).
 */
export class TableStatisticsKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TableStatisticsKeeper.name);
  private timer: NodeJS.Timeout | undefined;
  private readonly notOwnedTold = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: TableStatisticsKeeperOptions,
  ) {}

  /** The keeper of a service's `tables`, on its DataSource, as a Nest provider. */
  static provider(options: TableStatisticsKeeperOptions): Provider {
    return {
      provide: TableStatisticsKeeper,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new TableStatisticsKeeper(dataSource, options),
    };
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.keepUp().catch((error: unknown) =>
        this.logger.warn(`table statistics not checked: ${describeError(error)}`),
      );
    }, this.options.checkIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Analyses each table that has doubled since its statistics were taken; the tables it analysed. */
  async keepUp(): Promise<string[]> {
    const grown = await runQuery<{ table_name: string; owned: boolean }>(
      this.dataSource,
      grownTables.query({ tables: [...this.options.tables], minPages: this.options.minPages }),
    );
    const analysed: string[] = [];
    for (const { table_name: table, owned } of grown) {
      if (!owned) {
        if (!this.notOwnedTold.has(table)) {
          this.notOwnedTold.add(table);
          this.logger.warn(`${table} is not analysed as it grows: this database role does not own it`);
        }
        continue;
      }
      // One of the service's own table names (options.tables), never input.
      await this.dataSource.query(`ANALYZE (SKIP_LOCKED) ${table}`);
      analysed.push(table);
    }
    return analysed;
  }
}
