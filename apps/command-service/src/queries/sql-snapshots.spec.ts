import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REGENERATE_SQL_SNAPSHOTS, renderSqlSnapshots } from './sql-snapshots.js';

const directory = import.meta.dirname;
const checkedIn = () => readdirSync(directory).filter((name) => name.endsWith('.sql'));

describe('SQL snapshots of command-service', () => {
  const rendered = renderSqlSnapshots();

  it.each([...rendered.keys()])('%s is the SQL the repository sends', (name) => {
    const stale = `${name} does not match its statements: run \`${REGENERATE_SQL_SNAPSHOTS}\` and commit the result`;
    const file = join(directory, name);
    let snapshot: string;
    try {
      snapshot = readFileSync(file, 'utf8');
    } catch {
      throw new Error(stale);
    }
    const expected = rendered.get(name)!;
    if (snapshot !== expected) {
      // Name the statements whose SQL differs (each entry starts with `-- <statement name>`).
      const entries = (text: string) => new Set(text.split('\n\n'));
      const written = entries(snapshot);
      const changed = [...entries(expected)]
        .filter((entry) => !written.has(entry))
        .map((entry) => /^-- (\S+)/.exec(entry)?.[1] ?? entry.slice(0, 60));
      throw new Error(`${stale} (changed: ${changed.join(', ') || 'statements removed'})`);
    }
  });

  it('has no snapshot of a repository that is gone', () => {
    const extra = checkedIn().filter((name) => !rendered.has(name));
    if (extra.length > 0) {
      throw new Error(`${extra.join(', ')}: no such repository; run \`${REGENERATE_SQL_SNAPSHOTS}\``);
    }
  });
});
