/**
 * The pure parts of the reconnect-storm phase: which charge points get commands, the StatusNotification of each
 * connector, the check that the commands arrived in order, when a count over time first reached its target, and the
 * merge of what the fleet's child processes report.
 */
import { type Call, LatencyHistogram, type OcppVersion } from './telemetry-schedule.js';

/**
 * `count` charge points of a fleet of `fleetSize` spread evenly over it, in neighbouring pairs (one 1.6, one 2.0.1,
 * as versionOf numbers them), so both versions get commands: their indexes, ascending.
 */
export function commandSample(fleetSize: number, count: number): number[] {
  const wanted = Math.min(count, fleetSize);
  if (wanted <= 0) return [];
  const pairs = Math.ceil(wanted / 2);
  const pairsInFleet = Math.floor(fleetSize / 2);
  const indexes = new Set<number>();
  for (let pair = 0; pair < pairs && indexes.size < wanted; pair += 1) {
    const first = pairsInFleet === 0 ? 0 : Math.floor((pair * pairsInFleet) / pairs) * 2;
    for (const index of [first, first + 1])
      if (index < fleetSize && indexes.size < wanted) indexes.add(index);
  }
  // A fleet too small for whole pairs: the rest from the start.
  for (let index = 0; indexes.size < wanted; index += 1) indexes.add(index);
  return [...indexes].sort((a, b) => a - b);
}

/** How many of a charge point's `each` commands are created while the gateway is down; the rest during the storm. */
export function commandsBeforeReconnect(each: number): number {
  return Math.ceil(each / 2);
}

/** The id tag of a storm command (within 1.6's 20 characters): the charge point's index and the command's number. */
export function stormIdTag(chargePointIndex: number, command: number): string {
  return `S${chargePointIndex}-${command}`;
}

/** A StatusNotification of connector `connector` (1.6: connectorId; 2.0.1: EVSE `connector`, its connector 1). */
export function connectorAvailable(version: OcppVersion, id: string, at: Date, connector: number): Call {
  if (version === 'ocpp1.6') {
    return [
      2,
      id,
      'StatusNotification',
      { connectorId: connector, errorCode: 'NoError', status: 'Available', timestamp: at.toISOString() },
    ];
  }
  return [
    2,
    id,
    'StatusNotification',
    { timestamp: at.toISOString(), connectorStatus: 'Available', evseId: connector, connectorId: 1 },
  ];
}

/** The answer of a sampled charge point to a remote start (1.6 RemoteStartTransaction, 2.0.1 RequestStartTransaction). */
export const REMOTE_START_ACCEPTED = { status: 'Accepted' } as const;

export interface DeliveryCheck {
  /** Commands the API created (202). */
  created: number;
  /** Of those, received by their charge point at least once. */
  delivered: number;
  missing: number;
  /** Calls received more than once for the same command. */
  repeated: number;
  /** Calls received that name no created command of that charge point. */
  unexpected: number;
  /** Charge points whose commands did not arrive in the order they were created (first arrivals compared). */
  outOfOrder: string[];
}

/**
 * Compares what each charge point received (id tags, in order of arrival) with what was created for it (in order of
 * creation): every created command arrives, once, and in order; a charge point that got only the first few is in
 * order, with the rest missing.
 */
export function checkDelivery(
  created: ReadonlyMap<string, readonly string[]>,
  received: Readonly<Record<string, readonly string[]>>,
): DeliveryCheck {
  const check: DeliveryCheck = {
    created: 0,
    delivered: 0,
    missing: 0,
    repeated: 0,
    unexpected: 0,
    outOfOrder: [],
  };
  for (const [identity, tags] of created) {
    const expected = new Set(tags);
    const firstArrivals: string[] = [];
    for (const tag of received[identity] ?? []) {
      if (!expected.has(tag)) check.unexpected += 1;
      else if (firstArrivals.includes(tag)) check.repeated += 1;
      else firstArrivals.push(tag);
    }
    check.created += tags.length;
    check.delivered += firstArrivals.length;
    check.missing += tags.length - firstArrivals.length;
    const inCreationOrder = tags.filter((tag) => firstArrivals.includes(tag));
    if (inCreationOrder.some((tag, position) => firstArrivals[position] !== tag))
      check.outOfOrder.push(identity);
  }
  return check;
}

/** One reading of the storm's progress: seconds since the reconnect order, and the counts at that moment. */
export interface StormReading {
  seconds: number;
  /** Charge points whose BootNotification was accepted and every connector's status answered. */
  accepted: number;
  /** Controllers shown `online` by a connection opened after the kill. */
  online: number;
}

/** The first reading at which `key` reached `target`, in seconds; null if none did. */
export function firstReaching(
  timeline: readonly StormReading[],
  key: 'accepted' | 'online',
  target: number,
): number | null {
  return timeline.find((reading) => reading[key] >= target)?.seconds ?? null;
}

/** What one child process's charge points did from the reconnect order on (histograms: LatencyHistogram buckets). */
export interface StormFleetReport {
  /** BootNotification sent → answered, every one sent after the order. */
  bootRoundTripMs: Record<number, number>;
  /** Reconnect order → the upgrade accepted, every socket opened after the order. */
  connectMs: Record<number, number>;
  /** Reconnect order → boot accepted and every connector's status answered, once per charge point. */
  readyMs: Record<number, number>;
  ready: number;
  /** Epoch milliseconds when its last charge point was ready; null when none was. */
  lastReadyAt: number | null;
  bootStatuses: Record<string, number>;
  /** Upgrades refused, by HTTP status. */
  refusedBy: Record<string, number>;
  /** Connects that failed without an HTTP answer, by error message. */
  errorsBy: Record<string, number>;
  /** CALLERRORs answered to the boot and status calls, by code. */
  callErrors: Record<string, number>;
  /** Connects tried after the order (the first of each charge point included). */
  attempts: number;
  /** Sockets open after the order that closed before the end. */
  dropped: number;
}

/** A child's report before anything happened. */
export function emptyStormReport(): StormFleetReport {
  return {
    bootRoundTripMs: {},
    connectMs: {},
    readyMs: {},
    ready: 0,
    lastReadyAt: null,
    bootStatuses: {},
    refusedBy: {},
    errorsBy: {},
    callErrors: {},
    attempts: 0,
    dropped: 0,
  };
}

type Histograms = 'bootRoundTripMs' | 'connectMs' | 'readyMs';

/** The children's reports added up, each histogram merged into one. */
export type StormFleetTotals = Omit<StormFleetReport, Histograms> & Record<Histograms, LatencyHistogram>;

export function mergeStormReports(reports: readonly StormFleetReport[]): StormFleetTotals {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
  };
  const totals: StormFleetTotals = {
    ...emptyStormReport(),
    bootRoundTripMs: new LatencyHistogram(),
    connectMs: new LatencyHistogram(),
    readyMs: new LatencyHistogram(),
  };
  for (const report of reports) {
    totals.bootRoundTripMs.add(report.bootRoundTripMs);
    totals.connectMs.add(report.connectMs);
    totals.readyMs.add(report.readyMs);
    totals.ready += report.ready;
    if (report.lastReadyAt !== null)
      totals.lastReadyAt = Math.max(totals.lastReadyAt ?? report.lastReadyAt, report.lastReadyAt);
    add(totals.bootStatuses, report.bootStatuses);
    add(totals.refusedBy, report.refusedBy);
    add(totals.errorsBy, report.errorsBy);
    add(totals.callErrors, report.callErrors);
    totals.attempts += report.attempts;
    totals.dropped += report.dropped;
  }
  return totals;
}

/** The sum of a tally's counts. */
export function total(tally: Readonly<Record<string, number>>): number {
  return Object.values(tally).reduce((sum, count) => sum + count, 0);
}
