import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  REGENERATE_SQL_SNAPSHOTS,
  renderSqlSnapshots,
  type ServiceSqlSnapshots,
  sqlSnapshotsDirectory,
  writeSqlSnapshots,
} from '@cpc/database';

const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..', '..');

export interface SqlSnapshotCheck {
  /** Each snapshot the service's statements render, with what is wrong with its checked-in file (null: nothing). */
  files: { name: string; problem: string | null }[];
  /** Checked-in snapshots of repositories that are gone. */
  extra: string[];
}

/**
 * Compares a service's checked-in SQL snapshots with the SQL its repositories send; a problem names the statements
 * that changed and the command that writes the snapshots anew (UPDATE_SQL_SNAPSHOTS=1 writes them first).
 */
export function checkSqlSnapshots(snapshots: ServiceSqlSnapshots): SqlSnapshotCheck {
  // `npm run sql:snapshots` runs these specs with it: the files are written first, then checked as always.
  if (process.env.UPDATE_SQL_SNAPSHOTS === '1') writeSqlSnapshots(snapshots, REPOSITORY_ROOT);
  const directory = join(REPOSITORY_ROOT, sqlSnapshotsDirectory(snapshots));
  const rendered = renderSqlSnapshots(snapshots);
  const files = [...rendered].map(([name, expected]) => {
    const stale = `${name} does not match its statements: run \`${REGENERATE_SQL_SNAPSHOTS}\` and commit the result`;
    let snapshot: string;
    try {
      snapshot = readFileSync(join(directory, name), 'utf8');
    } catch {
      return { name, problem: stale };
    }
    if (snapshot === expected) return { name, problem: null };
    // Name the statements whose SQL differs (each entry starts with `-- <statement name>`).
    const written = new Set(snapshot.split('\n\n'));
    const changed = expected
      .split('\n\n')
      .filter((entry) => !written.has(entry))
      .map((entry) => /^-- (\S+)/.exec(entry)?.[1] ?? entry.slice(0, 60));
    return { name, problem: `${stale} (changed: ${changed.join(', ') || 'statements removed'})` };
  });
  const extra = readdirSync(directory).filter((name) => name.endsWith('.sql') && !rendered.has(name));
  return { files, extra };
}
