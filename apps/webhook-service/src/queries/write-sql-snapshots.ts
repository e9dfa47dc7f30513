import { writeSqlSnapshots } from '@cpc/database';
import { WEBHOOK_SERVICE_SQL } from './sql-snapshots.js';

/** Writes webhook-service's SQL snapshots (run from the repository's root: `npm run sql:snapshots`). */
process.stdout.write(`${writeSqlSnapshots(WEBHOOK_SERVICE_SQL)}\n`);
