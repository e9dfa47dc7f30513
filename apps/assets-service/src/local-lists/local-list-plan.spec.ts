import { entryOf, forOcpp16, listAfter, type LocalListEntry, planLocalList } from './local-list-plan.js';

const entry = (uuidSuffix: string, fields: Partial<LocalListEntry> = {}): LocalListEntry => ({
  uuid: `00000000-0000-4000-8000-0000000000${uuidSuffix}`,
  idToken: `TOKEN-${uuidSuffix}`,
  type: 'iso14443',
  status: 'accepted',
  expiresAt: null,
  group: null,
  ...fields,
});

describe('planLocalList', () => {
  const a = entry('0a');
  const b = entry('0b');
  const c = entry('0c');

  it('a full update lists every wanted entry in uuid order, with no removals', () => {
    expect(planLocalList('full', [a, b], [c, a])).toEqual({ tokens: [a, c], removals: [], entries: [a, c] });
    expect(planLocalList('full', [a], [])).toEqual({ tokens: [], removals: [], entries: [] });
  });

  it('a differential update carries what was added or changed and removes what is gone', () => {
    const blockedB = { ...b, status: 'blocked' as const };
    const plan = planLocalList('differential', [a, b, c], [a, blockedB, entry('0d')]);
    expect(plan.tokens).toEqual([blockedB, entry('0d')]);
    expect(plan.removals).toEqual([{ idToken: c.idToken, type: c.type }]);
    expect(plan.entries).toEqual([a, blockedB, entry('0d')]);
  });

  it('sees changes of expiry and group; an unchanged list makes an empty update', () => {
    const expiring = { ...a, expiresAt: '2031-01-01T00:00:00.000Z' };
    const grouped = { ...b, group: { idToken: 'FLEET', type: 'central' as const } };
    expect(planLocalList('differential', [a, b], [expiring, grouped]).tokens).toEqual([expiring, grouped]);
    expect(planLocalList('differential', [a, b], [b, a])).toEqual({
      tokens: [],
      removals: [],
      entries: [a, b],
    });
  });

  it('a differential update without a recorded list sends every entry', () => {
    expect(planLocalList('differential', null, [b, a])).toEqual({
      tokens: [a, b],
      removals: [],
      entries: [a, b],
    });
  });
});

describe('entries', () => {
  it('keep what a list says about a token, not where it is allowed', () => {
    expect(
      entryOf({ ...entry('0a'), allowedLocationUuids: ['00000000-0000-4000-8000-000000000001'] }),
    ).toEqual(entry('0a'));
  });

  it('1.6 lists leave out values longer than an idTag and groups longer than a parentIdTag', () => {
    expect(forOcpp16(entry('0a', { idToken: 'X'.repeat(21) }))).toBeUndefined();
    expect(forOcpp16(entry('0a', { idToken: 'X'.repeat(20) }))).toEqual(
      entry('0a', { idToken: 'X'.repeat(20) }),
    );
    expect(forOcpp16(entry('0a', { group: { idToken: 'G'.repeat(21), type: 'central' } }))).toEqual(
      entry('0a'),
    );
  });
});

describe('listAfter', () => {
  const a = entry('0a');
  const b = entry('0b');
  const c = entry('0c');
  const d = entry('0d');

  it('a full update: the tokens of the accepted parts', () => {
    const plan = planLocalList('full', [a], [d, c, b]);
    expect(listAfter('full', [a], plan, 0)).toEqual([]);
    expect(listAfter('full', [a], plan, 2)).toEqual([b, c]);
    expect(listAfter('full', [a], plan, 3)).toEqual(plan.entries);
  });

  it('a differential update: the base with the accepted tokens and removals applied', () => {
    const blockedB = { ...b, status: 'blocked' as const };
    const plan = planLocalList('differential', [a, b, c], [a, blockedB, d]);
    // tokens [blockedB, d], removals [c]
    expect(listAfter('differential', [a, b, c], plan, 0)).toEqual([a, b, c]);
    expect(listAfter('differential', [a, b, c], plan, 1)).toEqual([a, blockedB, c]);
    expect(listAfter('differential', [a, b, c], plan, 2)).toEqual([a, blockedB, c, d]);
    expect(listAfter('differential', [a, b, c], plan, 3)).toEqual(plan.entries);
  });

  it('a differential update without a recorded list starts from an empty one', () => {
    const plan = planLocalList('differential', null, [b, a]);
    expect(listAfter('differential', null, plan, 1)).toEqual([a]);
  });
});
