import { ErrorCode } from '@cpc/contracts';
import { DomainError } from '@cpc/errors';
import { normalizePermissions } from '../roles/roles.service.js';
import { type AdminScope, cliScope, permissionsNotHeld, requireHeld } from './admin-scope.js';

const scopeWith = (grants: string[]): AdminScope => ({
  tenantUuid: 't',
  actor: { type: 'user', uuid: 'u', name: 'staff@acme.test', address: '203.0.113.7' },
  grants,
});

describe('what a caller may hand out', () => {
  it.each([
    [['admin', 'asset'], ['asset:locations:list', 'admin:users'], []],
    [['asset:locations'], ['asset'], ['asset']],
    [['asset:locations:list'], ['asset:locations'], ['asset:locations']],
    [['admin', 'asset'], ['*'], ['*']],
    [['*'], ['*', 'control', 'asset:plugs:read'], []],
    [['control:commands'], ['control:commandsx:list'], ['control:commandsx:list']],
  ])('grants %j leave of %j not held: %j', (grants, permissions, missing) => {
    expect(permissionsNotHeld(grants, permissions)).toEqual(missing);
  });

  it('refuses with 403 (forbidden), naming what is missing', () => {
    const refusal = (() => {
      try {
        requireHeld(scopeWith(['asset']), ['asset:plugs', 'control:commands', '*'], 'the role');
      } catch (error) {
        return error as DomainError;
      }
    })();
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal?.code).toBe(ErrorCode.Forbidden);
    expect(refusal?.message).toBe('the role needs permissions the caller does not hold: control:commands, *');
    expect(() => requireHeld(scopeWith(['asset']), ['asset:plugs:read'], 'the role')).not.toThrow();
  });

  it('lets the CLI operator, who runs inside the cluster, hand out everything', () => {
    const scope = cliScope('t');
    expect(scope.actor).toMatchObject({ type: 'cli', uuid: null, address: null });
    expect(() => requireHeld(scope, ['*'], 'the role')).not.toThrow();
  });
});

describe('normalizePermissions', () => {
  it('trims, drops duplicates and empties, and keeps the order', () => {
    expect(normalizePermissions([' asset ', 'asset', '', 'control:commands:list'])).toEqual([
      'asset',
      'control:commands:list',
    ]);
  });

  it.each([
    [[], 'required'],
    [[' '], 'required'],
    [['Asset'], 'invalid_format'],
    [['a:b:c:d'], 'invalid_format'],
    ['asset', 'invalid_type'],
    [[1], 'invalid_type'],
  ])('refuses %j with 422 %s', (permissions, errorKey) => {
    expect(() => normalizePermissions(permissions)).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ parameter: 'permissions', errorKey })] }),
    );
  });
});
