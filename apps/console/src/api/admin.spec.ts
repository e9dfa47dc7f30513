import { adminFieldErrors, describeAdminError, formatPermissions, parsePermissions } from './admin';
import { ApiError } from './errors';

describe('the admin screens’ logic', () => {
  it('reads permissions one a line, also split by commas and spaces, each once', () => {
    expect(
      parsePermissions('asset:locations:list\n  asset:locations:read,control\n\nasset:locations:list  *'),
    ).toEqual(['asset:locations:list', 'asset:locations:read', 'control', '*']);
    expect(parsePermissions('  \n ')).toEqual([]);
    expect(parsePermissions(formatPermissions(['asset', 'admin:users:list']))).toEqual([
      'asset',
      'admin:users:list',
    ]);
  });

  it('says the last super admin refusal and the grant beyond one’s own permissions in words', () => {
    const lastSuperAdmin = new ApiError(422, {
      errors: [{ errorKey: 'last_super_admin', message: 'the last enabled holder of *', parameter: 'uuid' }],
    });
    expect(describeAdminError(lastSuperAdmin)).toMatch(
      /without an enabled user holding every permission \(\*\)/,
    );
    expect(adminFieldErrors(lastSuperAdmin)).toEqual({});

    const beyond = new ApiError(403, { error: 'missing permissions: admin:roles:delete' });
    expect(describeAdminError(beyond)).toMatch(
      /cannot grant or change more than you hold yourself \(missing permissions: admin:roles:delete\)/,
    );
    expect(describeAdminError(new ApiError(403, {}))).toMatch(/Your role does not allow this/);
    expect(describeAdminError(new ApiError(404, { error: 'role not found' }))).toMatch(/Not found/);
  });

  it('puts each 422 item beside its form field, items of a list beside the list', () => {
    const error = new ApiError(422, {
      errors: [
        { errorKey: 'invalid', message: 'not a permission', parameter: 'permissions.1' },
        { errorKey: 'invalid', message: 'too short', parameter: 'permissions[2]' },
        { errorKey: 'already_exists', message: 'in use', parameter: 'name' },
      ],
    });
    expect(adminFieldErrors(error)).toEqual({ permissions: 'not a permission; too short', name: 'in use' });
    expect(adminFieldErrors(new Error('x'))).toEqual({});
  });
});
