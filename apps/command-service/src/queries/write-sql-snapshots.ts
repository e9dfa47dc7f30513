import { writeSqlSnapshots } from '@cpc/database';
import { COMMAND_SERVICE_SQL } from './sql-snapshots.js';

/** Writes command-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
process.stdout.write(`${writeSqlSnapshots(COMMAND_SERVICE_SQL)}\n`);
