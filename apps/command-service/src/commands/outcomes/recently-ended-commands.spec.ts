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
});
