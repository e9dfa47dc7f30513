import { writeSqlSnapshots } from '@cpc/database';
import { ASSETS_SERVICE_SQL } from './sql-snapshots.js';

/** Writes assets-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
process.stdout.write(`${writeSqlSnapshots(ASSETS_SERVICE_SQL)}\n`);
