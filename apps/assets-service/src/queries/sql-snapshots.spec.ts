import { checkSqlSnapshots } from '@cpc/testing';
import { ASSETS_SERVICE_SQL } from './sql-snapshots.js';

describe('SQL snapshots of assets-service', () => {
  const check = checkSqlSnapshots(ASSETS_SERVICE_SQL);

  it.each(check.files)('$name is the SQL the repositories send', ({ problem }) => {
    expect(problem).toBeNull();
  });

  it('has no snapshot of a repository that is gone', () => {
    expect(check.extra).toEqual([]);
  });
});
