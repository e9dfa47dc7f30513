import { isTextOfAtMost, truncateCodePoints } from './text-limits.js';

describe('text limits in characters', () => {
  it('cuts before a character outside the BMP rather than inside it', () => {
    expect(truncateCodePoints(`${'a'.repeat(3)}\u{1F50C}b`, 4)).toBe(`aaa\u{1F50C}`);
    expect(truncateCodePoints(`${'a'.repeat(3)}\u{1F50C}b`, 3)).toBe('aaa');
    expect(truncateCodePoints('\u{1F50C}\u{1F50C}\u{1F50C}', 2)).toBe('\u{1F50C}\u{1F50C}');
  });

  it('leaves a value within the limit as it is', () => {
    expect(truncateCodePoints('abc', 3)).toBe('abc');
    expect(truncateCodePoints('', 0)).toBe('');
    expect(truncateCodePoints('abc', 0)).toBe('');
  });

  it('counts characters, as varchar(n) does', () => {
    expect(isTextOfAtMost('\u{1F50C}'.repeat(3), 3)).toBe(true);
    expect(isTextOfAtMost('\u{1F50C}'.repeat(4), 3)).toBe(false);
    expect(isTextOfAtMost('abcd', 3)).toBe(false);
    expect(isTextOfAtMost(undefined, 3)).toBe(false);
    expect(isTextOfAtMost(null, 3)).toBe(false);
  });
});
