import { NUL_REPLACEMENT, storableJson } from './storable-json.js';

describe('storableJson', () => {
  it('writes a value without NUL characters exactly as JSON.stringify does', () => {
    const value = {
      status: 'Accepted',
      statusInfo: { reasonCode: 'OK' },
      list: [1, null, true, 'a\\u0000b'],
    };
    expect(storableJson(value)).toBe(JSON.stringify(value));
    expect(storableJson(undefined)).toBeUndefined();
    expect(storableJson(null)).toBe('null');
  });

  it('replaces every NUL character in strings and keys, at any depth, with U+FFFD', () => {
    const value = {
      status: 'Accepted',
      statusInfo: { reasonCode: 'OK', additionalInfo: 'v1.2\u0000\u0000' },
      'key\u0000': [{ nested: '\u0000x\u0000' }, 'y\u0000', 7],
    };
    const text = storableJson(value)!;
    expect(text).not.toContain('\\u0000');
    expect(JSON.parse(text)).toEqual({
      status: 'Accepted',
      statusInfo: { reasonCode: 'OK', additionalInfo: `v1.2${NUL_REPLACEMENT}${NUL_REPLACEMENT}` },
      [`key${NUL_REPLACEMENT}`]: [
        { nested: `${NUL_REPLACEMENT}x${NUL_REPLACEMENT}` },
        `y${NUL_REPLACEMENT}`,
        7,
      ],
    });
    expect(JSON.parse(storableJson('\u0000')!)).toBe(NUL_REPLACEMENT);
  });

  it('leaves a literal backslash followed by u0000 as it is', () => {
    const value = { path: 'C:\\u0000dir', nul: '\u0000' };
    expect(JSON.parse(storableJson(value)!)).toEqual({ path: 'C:\\u0000dir', nul: NUL_REPLACEMENT });
  });
});
