import { describeError } from './describe-error.js';

describe('describeError', () => {
  it('gives an Error its message, without the stack', () => {
    expect(describeError(new TypeError('bad input'))).toBe('bad input');
  });

  it('gives anything else thrown as a string', () => {
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError(42)).toBe('42');
    expect(describeError(undefined)).toBe('undefined');
  });
});
