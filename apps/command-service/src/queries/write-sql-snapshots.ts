import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSqlSnapshots, SQL_SNAPSHOTS_DIR } from './sql-snapshots.js';

/** Writes the SQL snapshots of command-service (run from the repository's root: `npm run sql:snapshots`). */
const directory = join(process.cwd(), SQL_SNAPSHOTS_DIR);
mkdirSync(directory, { recursive: true });
const files = renderSqlSnapshots();
for (const name of readdirSync(directory)) {
  if (name.endsWith('.sql') && !files.has(name)) rmSync(join(directory, name));
}
for (const [name, content] of files) writeFileSync(join(directory, name), content);
process.stdout.write(`${files.size} SQL snapshots written to ${SQL_SNAPSHOTS_DIR}\n`);
