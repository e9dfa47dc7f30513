import pg from 'pg';

/** Creates the database named in `url` when the server does not have it yet (first start of a new platform). */
export async function ensureDatabaseExists(url: string): Promise<boolean> {
  const target = new URL(url);
  const databaseName = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(databaseName)) throw new Error(`unsupported database name "${databaseName}"`);
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString() });
  await client.connect();
  try {
    const existing = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName]);
    if (existing.rowCount && existing.rowCount > 0) return false;
    await client.query(`CREATE DATABASE "${databaseName}"`);
    return true;
  } catch (error) {
    // Two services starting at once may both try; the loser finds the database there.
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}
