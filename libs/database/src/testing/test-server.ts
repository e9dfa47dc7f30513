import { DataSource } from 'typeorm';

/**
 * The PostgreSQL server of a test run (TEST_DATABASE_URL, which `npm test` sets), at its maintenance database. This
 * library's specs make tables of their own there: @cpc/testing, whose test databases the other specs use, depends on
 * this library.
 */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** An initialized DataSource on TEST_SERVER_URL; the spec destroys it. */
export async function testServerDataSource(poolSize: number): Promise<DataSource> {
  const dataSource = new DataSource({ type: 'postgres', url: TEST_SERVER_URL, poolSize });
  await dataSource.initialize();
  return dataSource;
}
