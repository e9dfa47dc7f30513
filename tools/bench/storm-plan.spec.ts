import { createRequire } from 'node:module';
import {
  checkDelivery,
  commandSample,
  commandsBeforeReconnect,
  connectorAvailable,
  emptyStormReport,
  firstReaching,
  mergeStormReports,
  REMOTE_START_ACCEPTED,
  type StormFleetReport,
  stormIdTag,
  total,
} from './storm-plan.js';
import { type OcppVersion, versionOf } from './telemetry-schedule.js';

describe('the commands of the storm', () => {
  it('go to charge points spread over the whole fleet, as many 1.6 as 2.0.1', () => {
    const sample = commandSample(19_900, 20);
    expect(sample).toHaveLength(20);
    expect(new Set(sample).size).toBe(20);
    expect(sample.filter((index) => versionOf(index) === 'ocpp1.6')).toHaveLength(10);
    expect(sample[0]).toBe(0);
    expect(sample.at(-1)).toBeGreaterThan(19_900 * 0.9);
    expect(sample.every((index) => index < 19_900)).toBe(true);
  });

  it('go to every charge point of a fleet smaller than the sample, and to none of an empty one', () => {
    expect(commandSample(3, 20)).toEqual([0, 1, 2]);
    expect(commandSample(5, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(commandSample(100, 0)).toEqual([]);
    expect(commandSample(0, 20)).toEqual([]);
  });

  it('are half created while the gateway is down, the rest during the reconnects', () => {
    expect([1, 2, 5, 6].map(commandsBeforeReconnect)).toEqual([1, 1, 3, 3]);
  });

  it('carry id tags within 1.6 CiString20 that name charge point and command', () => {
    expect(stormIdTag(19_899, 5)).toBe('S19899-5');
    expect(stormIdTag(19_899, 99).length).toBeLessThanOrEqual(20);
  });
});

describe('messages of the storm', () => {
  // The schemas the gateway validates against (ocpp-rpc's, in strict mode).
  const validators = createRequire(import.meta.url)('ocpp-rpc/lib/standard-validators.js') as {
    subprotocol: string;
    validate(schemaId: string, params: unknown): boolean;
  }[];
  const validate = (version: OcppVersion, schemaId: string, payload: unknown) =>
    validators.find((candidate) => candidate.subprotocol === version)!.validate(schemaId, payload);
  const at = new Date('2026-11-26T08:00:00.123Z');

  it.each(['ocpp1.6', 'ocpp2.0.1'] as const)('are valid %s, a status per connector', (version) => {
    for (const connector of [1, 2, 3]) {
      const [type, id, action, payload] = connectorAvailable(version, String(connector), at, connector);
      expect([type, id, action]).toEqual([2, String(connector), 'StatusNotification']);
      expect(validate(version, 'urn:StatusNotification.req', payload)).toBe(true);
    }
    const remoteStart = version === 'ocpp1.6' ? 'RemoteStartTransaction' : 'RequestStartTransaction';
    expect(validate(version, `urn:${remoteStart}.conf`, REMOTE_START_ACCEPTED)).toBe(true);
  });

  it('name the connector on 1.6 and the EVSE on 2.0.1', () => {
    expect(connectorAvailable('ocpp1.6', '1', at, 2)[3]).toMatchObject({
      connectorId: 2,
      status: 'Available',
    });
    expect(connectorAvailable('ocpp2.0.1', '1', at, 2)[3]).toMatchObject({ evseId: 2, connectorId: 1 });
  });
});

describe('delivery of the commands', () => {
  const created = new Map([
    ['STORM-1', ['S0-0', 'S0-1', 'S0-2']],
    ['STORM-2', ['S1-0', 'S1-1']],
  ]);

  it('is complete and in order when each charge point got its commands as created', () => {
    expect(
      checkDelivery(created, { 'STORM-1': ['S0-0', 'S0-1', 'S0-2'], 'STORM-2': ['S1-0', 'S1-1'] }),
    ).toEqual({
      created: 5,
      delivered: 5,
      missing: 0,
      repeated: 0,
      unexpected: 0,
      outOfOrder: [],
    });
  });

  it('counts missing commands, a call received twice and one nobody created, each apart from the order', () => {
    expect(checkDelivery(created, { 'STORM-1': ['S0-0', 'S0-0', 'S0-1', 'X-1'] })).toEqual({
      created: 5,
      delivered: 2,
      missing: 3,
      repeated: 1,
      unexpected: 1,
      outOfOrder: [],
    });
  });

  it('names the charge points whose commands overtook one another', () => {
    const check = checkDelivery(created, {
      'STORM-1': ['S0-1', 'S0-0', 'S0-2'],
      'STORM-2': ['S1-0', 'S1-1', 'S1-0'],
    });
    expect(check.outOfOrder).toEqual(['STORM-1']);
    expect(check.repeated).toBe(1);
  });

  it('counts a gap as missing, not out of order (a command may fail, the next still comes); a swap is', () => {
    expect(checkDelivery(created, { 'STORM-1': ['S0-0', 'S0-2'] }).outOfOrder).toEqual([]);
    expect(checkDelivery(created, { 'STORM-1': ['S0-2', 'S0-0'] }).outOfOrder).toEqual(['STORM-1']);
  });
});

describe('the report of the storm', () => {
  const timeline = [
    { seconds: 0.3, accepted: 0, online: 0 },
    { seconds: 0.5, accepted: 900, online: 400 },
    { seconds: 0.8, accepted: 1000, online: 950 },
    { seconds: 1, accepted: 1000, online: 1000 },
  ];

  it('takes the first reading at which a count reached the fleet', () => {
    expect(firstReaching(timeline, 'accepted', 1000)).toBe(0.8);
    expect(firstReaching(timeline, 'online', 1000)).toBe(1);
    expect(firstReaching(timeline, 'online', 1001)).toBeNull();
    expect(firstReaching([], 'online', 1)).toBeNull();
  });

  const child = (overrides: Partial<StormFleetReport>): StormFleetReport => ({
    ...emptyStormReport(),
    ...overrides,
  });

  it("adds up the children's counts and histograms, and keeps the latest of their last ready charge points", () => {
    const merged = mergeStormReports([
      child({
        bootRoundTripMs: { 100: 2 },
        ready: 2,
        lastReadyAt: 1_000,
        bootStatuses: { Accepted: 2 },
        refusedBy: { 503: 3 },
        attempts: 5,
      }),
      child({
        bootRoundTripMs: { 100: 1, 200: 1 },
        ready: 2,
        lastReadyAt: 2_500,
        bootStatuses: { Accepted: 2 },
        refusedBy: { 503: 1, 429: 2 },
        errorsBy: { 'connect ECONNREFUSED 127.0.0.1:9000': 4 },
        attempts: 9,
        dropped: 1,
      }),
      child({}),
    ]);
    expect(merged.bootRoundTripMs.buckets).toEqual({ 100: 3, 200: 1 });
    expect(merged.bootRoundTripMs.count).toBe(4);
    expect(merged).toMatchObject({
      ready: 4,
      lastReadyAt: 2_500,
      bootStatuses: { Accepted: 4 },
      refusedBy: { 503: 4, 429: 2 },
      errorsBy: { 'connect ECONNREFUSED 127.0.0.1:9000': 4 },
      attempts: 14,
      dropped: 1,
    });
    expect(total(merged.refusedBy)).toBe(6);
    expect(mergeStormReports([child({})]).lastReadyAt).toBeNull();
  });
});
