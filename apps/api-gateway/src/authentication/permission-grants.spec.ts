import { permissionGranted } from './permission-grants.js';

describe('permissionGranted', () => {
  it.each([
    [['control:commands:list'], 'control:commands:list', true],
    [['control:commands'], 'control:commands:list', true],
    [['control'], 'control:commands:create', true],
    [['*'], 'asset:sensors:delete', true],
    [['control:commands:list'], 'control:commands:create', false],
    [['control:command'], 'control:commands:list', false],
    [['asset'], 'control:commands:list', false],
    [[], 'control:commands:list', false],
  ])('%j grants %s: %s', (grants, required, expected) => {
    expect(permissionGranted(grants, required)).toBe(expected);
  });
});
