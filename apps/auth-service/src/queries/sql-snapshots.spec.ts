import { checkSqlSnapshots } from '@cpc/testing';
import { AUTH_SERVICE_SQL } from './sql-snapshots.js';

describe('SQL snapshots of auth-service', () => {
  const check = checkSqlSnapshots(AUTH_SERVICE_SQL);

  it.each(check.files)('$name is the SQL the repositories send', ({ problem }) => {
    expect(problem).toBeNull();
  });

  it('has no snapshot of a repository that is gone', () => {
    expect(check.extra).toEqual([]);
  });
});
