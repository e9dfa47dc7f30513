import { nestsDeeperThan } from './body-depth.js';

const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { key: value };
  return value;
};

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestsDeeperThan('x', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1, b: [1, 2] }, 2)).toBe(false);
    expect(nestsDeeperThan({ a: 1, b: [1, 2] }, 1)).toBe(true);
  });

  it('takes exactly the limit and refuses one level more', () => {
    expect(nestsDeeperThan(nested(32), 32)).toBe(false);
    expect(nestsDeeperThan(nested(33), 32)).toBe(true);
  });

  it('walks a body nested far deeper than the call stack allows', () => {
    expect(nestsDeeperThan(nested(200_000), 32)).toBe(true);
  });
});
