import { ErrorCode } from '@cpc/contracts';
import type { DomainError } from '@cpc/errors';
import { narrowedScope, tokenPermissions } from './token-scope.js';

describe('narrowedScope', () => {
  const role = ['control:commands', 'asset:locations:read', 'admin'];

  it('is null (every permission of the role) when no scope is asked for', () => {
    expect(narrowedScope(role, undefined)).toBeNull();
  });

  it('keeps the asked-for permissions that a held one covers, once each', () => {
    expect(
      narrowedScope(role, [
        'control:commands:list',
        'asset:locations:read',
        'admin:users',
        'control:commands:list',
      ]),
    ).toEqual(['control:commands:list', 'asset:locations:read', 'admin:users']);
    expect(narrowedScope(['*'], ['control', 'asset:plugs'])).toEqual(['control', 'asset:plugs']);
  });

  it.each([['control'], ['*'], ['asset:locations'], ['asset:locations:delete'], ['webhooks:subscriptions']])(
    'refuses %s, which the role does not cover, with 400 invalid_scope on scope',
    (permission) => {
      let refused: DomainError | undefined;
      try {
        narrowedScope(role, ['control:commands:list', permission]);
      } catch (error) {
        refused = error as DomainError;
      }
      expect(refused?.code).toBe(ErrorCode.InvalidRequest);
      expect(refused?.issues).toEqual([
        { errorKey: 'invalid_scope', parameter: 'scope', message: expect.stringContaining(permission) },
      ]);
    },
  );
});

describe('tokenPermissions', () => {
  it("is the role's permissions without a scope, else the scope as far as the role still covers it", () => {
    expect(tokenPermissions(['asset', 'control'], null)).toEqual(['asset', 'control']);
    expect(tokenPermissions(['asset'], ['asset:plugs:list', 'control:commands'])).toEqual([
      'asset:plugs:list',
    ]);
  });
});
