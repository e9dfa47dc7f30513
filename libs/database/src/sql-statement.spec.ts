import { sqlStatement, toPositional } from './sql-statement.js';

describe('sqlStatement', () => {
  const claim = sqlStatement<{ owner: string; leaseMs: number; limit: number }>({
    name: 'spec.claim',
    prepared: true,
    parameters: ['owner', 'leaseMs', 'limit'],
    sql: `UPDATE t SET owner = :owner, until = now() + :leaseMs * interval '1 millisecond'
           WHERE id IN (SELECT id FROM t LIMIT :limit) AND owner IS DISTINCT FROM :owner`,
  });

  it('numbers the parameters by their place in the list, a name used twice keeping its number', () => {
    expect(claim.text).toBe(`UPDATE t SET owner = $1, until = now() + $2 * interval '1 millisecond'
           WHERE id IN (SELECT id FROM t LIMIT $3) AND owner IS DISTINCT FROM $1`);
  });

  it('gives the values in position order, with the name only when prepared', () => {
    expect(claim.query({ limit: 5, owner: 'me', leaseMs: 100 })).toEqual({
      name: 'spec.claim',
      text: claim.text,
      values: ['me', 100, 5],
    });
    const plain = sqlStatement<{ id: string }>({ name: 'spec.get', parameters: ['id'], sql: 'SELECT :id' });
    expect(plain.query({ id: 'x' })).toEqual({ text: 'SELECT $1', values: ['x'] });
  });

  it('leaves casts, string literals and quoted identifiers alone', () => {
    expect(
      toPositional(
        `SELECT (:ids::uuid[])[1], to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'it''s :not', "a:b"`,
        ['ids'],
      ),
    ).toBe(
      `SELECT ($1::uuid[])[1], to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'it''s :not', "a:b"`,
    );
  });

  it('refuses a placeholder that is not listed, a listed parameter never used, and a missing value', () => {
    expect(() => toPositional('SELECT :a, :b', ['a'], 'spec.x')).toThrow(
      'spec.x: :b is not a listed parameter',
    );
    expect(() => toPositional('SELECT :a', ['a', 'b'], 'spec.x')).toThrow('spec.x: :b never used');
    expect(() => toPositional('SELECT :a', ['a', 'a'], 'spec.x')).toThrow('listed twice');
    expect(() => claim.query({ owner: 'me', leaseMs: 1 } as never)).toThrow('no value for :limit');
  });
});
