import { writeSqlSnapshots } from '@cpc/database';
import { AUTH_SERVICE_SQL } from './sql-snapshots.js';

/** Writes auth-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
process.stdout.write(`${writeSqlSnapshots(AUTH_SERVICE_SQL)}\n`);
