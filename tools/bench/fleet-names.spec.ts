import { FleetNames } from './fleet-names.js';

describe('FleetNames', () => {
  it('names the first fleet of a prefix after it and numbers the later ones, each prefix on its own', () => {
    const names = new FleetNames();
    expect([names.next('CMD'), names.next('HOOK'), names.next('CMD'), names.next('CMD')]).toEqual([
      'CMD',
      'HOOK',
      'CMD2',
      'CMD3',
    ]);
  });
});
