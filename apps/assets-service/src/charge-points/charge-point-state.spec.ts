import { randomUUID } from 'node:crypto';
import { ChargePointEventSubjects } from '@cpc/contracts';
import {
  type ControllerState,
  MAX_REMEMBERED_DISCONNECTS,
  plugOf,
  type PlugState,
  readStateEvent,
  applyToController,
  type StateEvent,
} from './charge-point-state.js';

const tenantUuid = randomUUID();

/** A small seeded generator (mulberry32), so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const controllerUuid = randomUUID();
const occurredAt = '2026-01-01T00:00:05.000Z';

function read(subject: string, data: Record<string, unknown>, envelope: Record<string, unknown> = {}) {
  return readStateEvent(subject, {
    eventId: randomUUID(),
    occurredAt,
    tenantUuid,
    data: { controllerUuid, ...data },
    ...envelope,
  });
}

describe('readStateEvent', () => {
  it('names the controller in lower case, as PostgreSQL returns uuids', () => {
    expect(
      read(ChargePointEventSubjects.transactionUpdated, { controllerUuid: controllerUuid.toUpperCase() }),
    ).toMatchObject({ tenantUuid, controllerUuid, change: { kind: 'seen' } });
  });

  it.each([
    ['no tenant uuid', { tenantUuid: 'tenant' }, {}],
    ['no controller uuid', {}, { controllerUuid: 42 }],
    ['no occurredAt', { occurredAt: 'yesterday' }, {}],
    ['no occurredAt', { occurredAt: '-010000-01-01T00:00:00.000Z' }, {}],
  ])('finds an event malformed: %s', (reason, envelope, data) => {
    expect(read(ChargePointEventSubjects.connected, data, envelope)).toBe(reason);
  });

  it('drops a disconnect whose connection id cannot be stored: no connect with that id applies', () => {
    expect(read(ChargePointEventSubjects.disconnected, { connectionId: 'x'.repeat(100) })).toMatchObject({
      change: { kind: 'disconnected', connectionId: 'x'.repeat(100) },
    });
    expect(read(ChargePointEventSubjects.disconnected, { connectionId: 'x'.repeat(101) })).toBe(
      'connection id too long',
    );
  });

  it('drops a connect whose connection id or protocol cannot be stored: the statement would fail for ever', () => {
    expect(read(ChargePointEventSubjects.connected, { connectionId: 'x'.repeat(100) })).toMatchObject({
      change: { kind: 'connected', connectionId: 'x'.repeat(100), protocol: null },
    });
    // Characters count, not UTF-16 units.
    expect(read(ChargePointEventSubjects.connected, { connectionId: '🔌'.repeat(100) })).toMatchObject({
      change: { kind: 'connected' },
    });
    expect(read(ChargePointEventSubjects.connected, { connectionId: 'x'.repeat(101) })).toBe(
      'connection id or protocol too long',
    );
    expect(read(ChargePointEventSubjects.connected, { protocol: 'ocpp\u00001.6' })).toBe(
      'connection id or protocol too long',
    );
  });

  it('keeps only the contact of a boot whose fields cannot be stored', () => {
    expect(read(ChargePointEventSubjects.booted, { vendor: 'v'.repeat(256) })).toMatchObject({
      change: { kind: 'seen' },
      leftOut: 'boot fields too long',
    });
  });

  it('reads connector statuses as before: numbers from strings, the status cut to 50 characters', () => {
    expect(
      read(ChargePointEventSubjects.connectorStatus, { connectorId: '2', evseId: 1, status: 'S'.repeat(60) }),
    ).toMatchObject({
      change: {
        kind: 'connector-status',
        plug: { connectorId: 2, evseId: 1 },
        status: 'S'.repeat(50),
        errorCode: null,
      },
    });
  });

  it.each([
    ['connector 0 (the charge point itself)', { connectorId: 0, status: 'Available' }],
    ['no status', { connectorId: 1 }],
    ['a connector id beyond integer', { connectorId: 2 ** 31, status: 'Available' }],
    ['an EVSE id beyond integer', { connectorId: 1, evseId: 2 ** 31, status: 'Available' }],
    ['an error code too long', { connectorId: 1, status: 'Faulted', errorCode: 'E'.repeat(51) }],
  ])('keeps only the contact of a status with %s', (_, data) => {
    expect(read(ChargePointEventSubjects.connectorStatus, data)).toMatchObject({ change: { kind: 'seen' } });
  });
});

describe('applying events', () => {
  const state: ControllerState = {
    connectionStatus: 'online',
    connectionId: 'c1',
    connectionChangedAt: new Date('2026-01-01T00:00:05.000Z'),
    connectionOpenedAt: new Date('2026-01-01T00:00:05.000Z'),
    connectionOpenedSequence: 1,
    connectionsClosed: [],
    ocppProtocol: 'ocpp1.6',
    lastSeenAt: new Date(occurredAt),
    vendor: null,
    model: null,
    serialNumber: null,
    firmwareVersion: null,
    bootedAt: null,
    bootedSequence: null,
  };

  it('changes nothing (the same object) for an event no newer than the row', () => {
    const seen = read(ChargePointEventSubjects.transactionUpdated, {});
    const disconnect = read(ChargePointEventSubjects.disconnected, { connectionId: 'c0' });
    if (typeof seen === 'string' || typeof disconnect === 'string') throw new Error('malformed');
    expect(applyToController(state, seen)).toBe(state);
    // Same instant, earlier in the stream than the connect of the connection the controller is known by: about a
    // connection that had closed before that one opened.
    expect(applyToController(state, disconnect)).toBe(state);
  });

  it('finds the plug of a 1.6 connector by its id, of a 2.0.1 one as the n-th of its EVSE', () => {
    const plug = (connectorId: number, evseId: number): PlugState => ({
      uuid: `p${connectorId}`,
      connectorId,
      evseId,
      status: 'unknown',
      errorCode: null,
      statusUpdatedAt: null,
      statusUpdatedSequence: null,
    });
    const plugs = [plug(4, 2), plug(1, 1), plug(3, 2), plug(2, 1)];
    expect(plugOf(plugs, { connectorId: 3, evseId: null })?.uuid).toBe('p3');
    expect(plugOf(plugs, { connectorId: 1, evseId: 2 })?.uuid).toBe('p3');
    expect(plugOf(plugs, { connectorId: 2, evseId: 2 })?.uuid).toBe('p4');
    expect(plugOf(plugs, { connectorId: 3, evseId: 2 })).toBeUndefined();
    expect(plugOf(plugs, { connectorId: 5, evseId: null })).toBeUndefined();
  });
});

describe('connections, in every order the events can be handled in', () => {
  const offline: ControllerState = {
    connectionStatus: 'offline',
    connectionId: null,
    connectionChangedAt: null,
    connectionOpenedAt: null,
    connectionOpenedSequence: null,
    connectionsClosed: [],
    ocppProtocol: null,
    lastSeenAt: null,
    vendor: null,
    model: null,
    serialNumber: null,
    firmwareVersion: null,
    bootedAt: null,
    bootedSequence: null,
  };
  /** A connect or disconnect of a connection (null: none named) at an instant (s). */
  type Step = ['connect' | 'disconnect', string | null, number];
  const event = ([kind, connectionId, seconds]: Step, sequence: number): StateEvent => ({
    tenantUuid,
    controllerUuid,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)),
    sequence,
    change:
      kind === 'connect'
        ? { kind: 'connected', connectionId, protocol: 'ocpp1.6' }
        : { kind: 'disconnected', connectionId },
  });

  /** Every distinct order of the items (indexes), each repeated `times` times. */
  function* orders(count: number, times: number, taken: number[] = []): Generator<number[]> {
    if (taken.length === count * times) {
      yield taken;
      return;
    }
    for (let index = 0; index < count; index++) {
      if (taken.filter((item) => item === index).length < times)
        yield* orders(count, times, [...taken, index]);
    }
  }

  /**
   * Each event delivered twice (a redelivery, before or after any other), in every order, each ordering of stream
   * sequences among the events too when `anySequence` (events of different instants: two gateway instances publish
   * them in either order); else the events have the stream order they are listed in (same instant: one gateway).
   */
  function endStates(steps: readonly Step[], anySequence: boolean): Set<string> {
    const ends = new Set<string>();
    const sequences = anySequence
      ? [...orders(steps.length, 1)].map((order) => order.map((index) => index + 1))
      : [steps.map((_, index) => index + 1)];
    for (const sequence of sequences) {
      const events = steps.map((step, index) => event(step, sequence[index]));
      for (const order of orders(steps.length, 2)) {
        const end = order.reduce((state, index) => applyToController(state, events[index]), offline);
        ends.add(`${end.connectionStatus} ${String(end.connectionId)}`);
      }
    }
    return ends;
  }

  it('stays online over the connection that replaced another, whenever the old one closes', () => {
    // c1 opens at 1 s, c2 replaces it at 5 s, c1 closes at 6 s.
    const steps: Step[] = [
      ['connect', 'c1', 1],
      ['connect', 'c2', 5],
      ['disconnect', 'c1', 6],
    ];
    expect(endStates(steps, true)).toEqual(new Set(['online c2']));
    // And offline once c2 closed too.
    expect(endStates([...steps, ['disconnect', 'c2', 7]], true)).toEqual(new Set(['offline null']));
  });

  it('follows stream order for changes of the same millisecond, redeliveries included', () => {
    expect(
      endStates(
        [
          ['connect', 'c1', 1],
          ['disconnect', 'c1', 1],
        ],
        false,
      ),
    ).toEqual(new Set(['offline null']));
    const flapping: Step[] = [
      ['connect', 'c1', 1],
      ['disconnect', 'c1', 1],
      ['connect', 'c2', 1],
    ];
    expect(endStates(flapping, false)).toEqual(new Set(['online c2']));
    expect(endStates([...flapping, ['disconnect', 'c2', 1]], false)).toEqual(new Set(['offline null']));
  });

  it('takes a connection id announced again after its disconnect (presence lost and regained) as online', () => {
    expect(
      endStates(
        [
          ['connect', 'c1', 1],
          ['disconnect', 'c1', 3],
          ['connect', 'c1', 4],
        ],
        true,
      ),
    ).toEqual(new Set(['online c1']));
  });

  /** Whether a is after b in stream order: by instant, then by stream sequence. */
  const after = (a: StateEvent, b: StateEvent) =>
    a.at.getTime() > b.at.getTime() || (a.at.getTime() === b.at.getTime() && a.sequence > b.sequence);

  /**
   * The state the events must end in, whatever order they are handled in: online over the connection with the newest
   * connect unless a disconnect of it newer than the connect was handled (a connect or disconnect naming no
   * connection: by time alone, any).
   */
  function truth(events: readonly StateEvent[]): string {
    const connects = events.filter((candidate) => candidate.change.kind === 'connected');
    if (connects.length === 0) return 'offline null';
    const newest = connects.reduce((a, b) => (after(b, a) ? b : a));
    const id = newest.change.kind === 'connected' ? newest.change.connectionId : null;
    const closed = events.some(
      (candidate) =>
        candidate.change.kind === 'disconnected' &&
        after(candidate, newest) &&
        (candidate.change.connectionId === null || id === null || candidate.change.connectionId === id),
    );
    return closed ? 'offline null' : `online ${String(id)}`;
  }

  /**
   * Every timeline of `count` connections, one instant (s) apart: connects in the order of their connections, each
   * connection closing at any point after its connect, or not at all.
   */
  function timelines(count: number): Step[][] {
    const all: Step[][] = [];
    const extend = (steps: Step[], opened: number, closable: readonly number[]) => {
      all.push(steps);
      if (opened < count) {
        extend([...steps, ['connect', `c${opened + 1}`, steps.length + 1]], opened + 1, [
          ...closable,
          opened + 1,
        ]);
      }
      for (const connection of closable) {
        extend(
          [...steps, ['disconnect', `c${connection}`, steps.length + 1]],
          opened,
          closable.filter((other) => other !== connection),
        );
      }
    };
    extend([], 0, []);
    // A timeline ends when nothing more happens in it: each prefix is one too.
    return all.filter((steps) => steps.some(([kind]) => kind === 'connect'));
  }

  it('ends in the truth for every timeline of two connections, in every order, redeliveries included', () => {
    const wrong = timelines(2).filter((steps) => {
      const expected = truth(steps.map((step, index) => event(step, index + 1)));
      const ends = endStates(steps, true);
      return ends.size !== 1 || !ends.has(expected);
    });
    expect(wrong).toEqual([]);
  });

  it('ends in the truth for every timeline of three connections, in every order', () => {
    const wrong: string[] = [];
    for (const steps of timelines(3)) {
      const events = steps.map((step, index) => event(step, index + 1));
      const expected = truth(events);
      for (const order of orders(events.length, 1)) {
        const end = order.reduce((state, index) => applyToController(state, events[index]), offline);
        const got = `${end.connectionStatus} ${String(end.connectionId)}`;
        if (got !== expected) wrong.push(`${JSON.stringify(order.map((index) => steps[index]))}: ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('ends in the truth for random events: reused connection ids, none named, ties, redeliveries', () => {
    const next = random(7);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
    for (let run = 0; run < 5_000; run++) {
      const events = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, index) =>
        event(
          [pick(['connect', 'disconnect'] as const), pick(['c1', 'c2', 'c3', null]), Math.floor(next() * 4)],
          index + 1,
        ),
      );
      // Each event handled once or twice, in a random order.
      const handled = events
        .flatMap((handledEvent) => (next() < 0.3 ? [handledEvent, handledEvent] : [handledEvent]))
        .map((handledEvent) => ({ handledEvent, place: next() }))
        .sort((a, b) => a.place - b.place)
        .map(({ handledEvent }) => handledEvent);
      const end = handled.reduce(applyToController, offline);
      const got = `${end.connectionStatus} ${String(end.connectionId)}`;
      if (got !== truth(events)) {
        throw new Error(`run ${run}: ${got} for ${JSON.stringify(handled)}, expected ${truth(events)}`);
      }
    }
  });

  it(`remembers ${MAX_REMEMBERED_DISCONNECTS} disconnects handled before their connects, forgetting the oldest`, () => {
    // Connection i opens at i s; the newest closes first, at (count + 1) s, the others after it.
    const handledDisconnectsFirst = (count: number) => {
      const connects = Array.from({ length: count }, (_, index): Step => [
        'connect',
        `c${index + 1}`,
        index + 1,
      ]);
      const disconnects = Array.from({ length: count }, (_, index): Step => [
        'disconnect',
        `c${count - index}`,
        count + 1 + index,
      ]);
      const events = [...connects, ...disconnects].map((step, index) => event(step, index + 1));
      const end = [...events.slice(count), ...events.slice(0, count)].reduce(applyToController, offline);
      return `${end.connectionStatus} ${String(end.connectionId)}`;
    };
    expect(handledDisconnectsFirst(MAX_REMEMBERED_DISCONNECTS)).toBe('offline null');
    // The newest connection's disconnect, the oldest of them, is forgotten: the known limit of the bound.
    const count = MAX_REMEMBERED_DISCONNECTS + 1;
    expect(handledDisconnectsFirst(count)).toBe(`online c${count}`);
  });
});
