import { writeSqlSnapshots } from '@cpc/database';
import { WEBHOOK_SERVICE_SQL } from './sql-snapshots.js';

/** Writes webhook-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
const written = writeSqlSnapshots(WEBHOOK_SERVICE_SQL);
process.stdout.write(`${written} SQL snapshots written to ${WEBHOOK_SERVICE_SQL.directory}\n`);
