import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { describeError } from '@cpc/errors';
import type { DataSource } from 'typeorm';
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
 * A table's size now and when its statistics were last taken (`relpages`, set by ANALYZE and VACUUM), in pages, and
 * whether this role may analyse it (as its owner: PostgreSQL skips the table with a warning otherwise).
 */
export function tableSizeStatement(table: string) {
  return sqlStatement<Record<never, never>, TableSize>({
    name: `statistics.table-size:${table}`,
    parameters: [],
    sql: `SELECT (pg_relation_size(oid) / current_setting('block_size')::int)::int AS pages, relpages AS analysed_pages,
                 pg_has_role(relowner, 'USAGE') AS owned
            FROM pg_class WHERE oid = '${table}'::regclass`,
  });
}

interface TableSize {
  pages: number;
  analysed_pages: number;
  owned: boolean;
}

/** Takes a table's statistics anew, unless another transaction is doing so (then it returns at once). */
export function analyseTableStatement(table: string) {
  return sqlStatement({
    name: `statistics.analyse:${table}`,
    parameters: [],
    sql: `ANALYZE (SKIP_LOCKED) ${table}`,
  });
}

/**
 * Takes a table's statistics anew (ANALYZE) whenever it has doubled since they were last taken, by this instance,
 * another one or autovacuum. A prepared statement is planned for its values five times; then PostgreSQL keeps a generic
 * plan per connection until a table it reads is analysed. A generic plan made while a table was a few pages (a new
 * database) reads it whole, and without an ANALYZE it would be kept however large the table grows (autovacuum may be
 * off, or behind); made again at every doubling, a plan never serves a table more than twice the size it was made
 * for. Replicas may check at the same time: the statistics show an ANALYZE another one has finished, and one still
 * running is skipped.
 */
export class TableStatisticsKeeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TableStatisticsKeeper.name);
  private timer: NodeJS.Timeout | undefined;
  private readonly notOwnedTold = new Set<string>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: TableStatisticsKeeperOptions,
  ) {}

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
    const analysed: string[] = [];
    for (const table of this.options.tables) {
      const [size] = await runQuery<TableSize>(this.dataSource, tableSizeStatement(table).query({}));
      if (size.pages < this.options.minPages || size.pages < 2 * size.analysed_pages) continue;
      if (!size.owned) {
        if (!this.notOwnedTold.has(table)) {
          this.notOwnedTold.add(table);
          this.logger.warn(`${table} is not analysed as it grows: this database role does not own it`);
        }
        continue;
      }
      await runQuery(this.dataSource, analyseTableStatement(table).query({}));
      analysed.push(table);
    }
    return analysed;
  }
}
