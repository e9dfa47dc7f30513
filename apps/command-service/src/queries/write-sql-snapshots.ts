import { writeSqlSnapshots } from '@cpc/database';
import { COMMAND_SERVICE_SQL } from './sql-snapshots.js';

/** Writes command-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
const written = writeSqlSnapshots(COMMAND_SERVICE_SQL);
process.stdout.write(`${written} SQL snapshots written to ${COMMAND_SERVICE_SQL.directory}\n`);
