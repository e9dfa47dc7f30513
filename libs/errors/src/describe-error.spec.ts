import { describeError } from './describe-error.js';

describe('describeError', () => {
  it('gives an Error its message, without the stack', () => {
    expect(describeError(new TypeError('bad input'))).toBe('bad input');
  });

  it('gives the stack when asked, the message when there is none', () => {
    const error = new Error('broken');
    expect(describeError(error, { stack: true })).toBe(error.stack);
    error.stack = undefined;
    expect(describeError(error, { stack: true })).toBe('broken');
  });

  it('gives anything else thrown as a string', () => {
    expect(describeError('plain text')).toBe('plain text');
    expect(describeError(42, { stack: true })).toBe('42');
    expect(describeError(undefined)).toBe('undefined');
  });
});
