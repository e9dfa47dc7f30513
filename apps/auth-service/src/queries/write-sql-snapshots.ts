import { writeSqlSnapshots } from '@cpc/database';
import { AUTH_SERVICE_SQL } from './sql-snapshots.js';

/** Writes auth-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
const written = writeSqlSnapshots(AUTH_SERVICE_SQL);
process.stdout.write(`${written} SQL snapshots written to ${AUTH_SERVICE_SQL.directory}\n`);
