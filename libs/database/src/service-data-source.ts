import { DataSource, type DataSourceOptions } from 'typeorm';
import { QueryErrorLogger } from './query-error-logger.js';

export interface ServiceDataSourceOptions {
  url: string;
  /** The service's own PostgreSQL schema; no other service reads or writes it. */
  schema: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  poolSize?: number;
}

/**
 * One DataSource per service: its own schema, its own migrations, a migrations table named after the service, and
 * never `synchronize` — the schema changes only through reviewed, timestamped migrations.
 */
export function createServiceDataSource(options: ServiceDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: `${options.schema}_migrations`,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logger: new QueryErrorLogger(),
    extra: { max: options.poolSize ?? 10, application_name: `cpc-${options.schema}` },
  });
}

/** Creates the schema when it is missing (TypeORM keeps its migrations table inside it), then applies pending migrations. */
export async function migrateServiceSchema(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema;
  if (!schema) throw new Error('a service DataSource must name its schema');
  const wasInitialized = dataSource.isInitialized;
  if (!wasInitialized) await dataSource.initialize();
  try {
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    if (!wasInitialized) await dataSource.destroy();
  }
}
