import { RecentlyEndedCommands } from './recently-ended-commands.js';

describe('RecentlyEndedCommands', () => {
  it('remembers what was added, up to its capacity, forgetting the oldest first', () => {
    const ended = new RecentlyEndedCommands(2);
    ended.add('a');
    ended.add('b');
    ended.add('a');
    expect([ended.has('a'), ended.has('b')]).toEqual([true, true]);
    ended.add('c');
    expect([ended.has('a'), ended.has('b'), ended.has('c')]).toEqual([false, true, true]);
  });

  it("asked with a charge point, knows a command only as that charge point's, learnt when added or later", () => {
    const ended = new RecentlyEndedCommands(2);
    ended.add('a');
    ended.add('b', 'tenant/one');
    expect([ended.has('b', 'tenant/one'), ended.has('b', 'tenant/two'), ended.has('b')]).toEqual([
      true,
      false,
      true,
    ]);
    expect(ended.has('a', 'tenant/one')).toBe(false);
    ended.add('a', 'tenant/one');
    ended.add('b', 'tenant/two');
    expect([
      ended.has('a', 'tenant/one'),
      ended.has('b', 'tenant/one'),
      ended.has('b', 'tenant/two'),
    ]).toEqual([true, true, false]);
    // Learning its charge point did not make a the newest: it is still forgotten first.
    ended.add('c');
    expect([ended.has('a'), ended.has('b'), ended.has('c')]).toEqual([false, true, true]);
  });
});
