import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  connectorAvailable,
  emptyStormReport,
  REMOTE_START_ACCEPTED,
  type StormFleetReport,
} from './storm-plan.js';
import {
  bootNotification,
  type Call,
  firstDelayMs,
  heartbeat,
  isCharging,
  LatencyHistogram,
  meterValues,
  type OcppVersion,
  statusNotification,
  type StepIntervals,
  transactionStart,
  versionOf,
} from './telemetry-schedule.js';

/**
 * A child process of `npm run bench` holding charge points: each a plain `ws` socket speaking OCPP-J (1.6 or 2.0.1).
 * Idle ones (the idle phase): BootNotification once, Heartbeat at the interval, CALLERROR NotImplemented to any call
 * from the platform. With `telemetry` (the telemetry phase): BootNotification, a StatusNotification per connector,
 * a transaction started on the charging ones, and then, step by step as the parent orders, Heartbeat,
 * StatusNotification changes and meter values at the step's intervals, each call timed until its answer. With
 * `storm` (the reconnect-storm phase): BootNotification and a StatusNotification per connector on every connect; once
 * armed, the sockets the gateway's death closes wait for the parent's order, then all reconnect in the same moment,
 * a refused or failed connect tried again after a fixed delay; the charge points of the commands' sample accept
 * remote starts and note their id tags in order of arrival.
 * One process holds at most a few thousand, so the fleet stays within the per-process open-file limit.
 */
export interface IdleFleetOrder {
  ocppUrl: string;
  tenant: string;
  identities: string[];
  heartbeatSeconds: number;
  connectsPerSecond: number;
  /** Index of the first identity in the whole fleet (it decides the version and, with telemetry, who charges). */
  firstIndex?: number;
  telemetry?: TelemetryFleetPlan;
  storm?: StormFleetPlan;
}

export interface StormFleetPlan {
  connectors: number;
  /** The identities of the commands' sample. */
  commandIdentities: string[];
  /** Fixed delay before a refused or failed connect is tried again. */
  retryMs: number;
}

export interface TelemetryFleetPlan {
  chargingShare: number;
  measurands: number;
  /** An id token the tenant knows, for the transactions. */
  idTag: string;
}

export interface IdleFleetReport {
  connected: number;
  failed: number;
  closed: number;
  /** Connects tried again after a refusal or failure. */
  retries: number;
  heartbeatsAnswered: number;
  /** Telemetry: booted, statuses sent and, charging, the transaction started. */
  ready: number;
  /** Telemetry: messages sent and answered in the current step. */
  stepSent: number;
  stepAnswered: number;
  /** Storm: charge points ready (booted, statuses answered) since the reconnect order. */
  stormReady: number;
  /** Storm: upgrades refused since the reconnect order. */
  stormRefused: number;
  /** Storm: id tags of the remote starts each charge point of the sample received, in order of arrival. */
  commandsReceived: Record<string, string[]>;
  lastError?: string;
}

/** What one child's charge points did in one step (only calls sent during it). */
export interface TelemetryStepReport {
  sent: Record<TelemetryKind, number>;
  answered: Record<TelemetryKind, number>;
  /** CALLERROR answers by error code, and calls left unanswered when the step was drained. */
  errors: Record<string, number>;
  unanswered: number;
  roundTripMs: Record<number, number>;
  meterRoundTripMs: Record<number, number>;
}

export type TelemetryKind = 'heartbeat' | 'status' | 'meter';

export type FleetMessage =
  { state: IdleFleetReport } | { stepReport: TelemetryStepReport } | { stormReport: StormFleetReport };

const MAX_ATTEMPTS = 5;
/** How long a step's unanswered calls are waited for once it ends. */
const DRAIN_MS = 15_000;

interface Pending {
  sentAt: number;
  kind: TelemetryKind | 'setup';
  step: number;
  then?: (payload: Record<string, unknown>) => void;
  /** A set-up call answered with a CALLERROR (its code). */
  failed?: (errorCode: string) => void;
}

interface ChargePoint {
  socket: WebSocket;
  version: OcppVersion;
  charging: boolean;
  identity: string;
  transactionId?: string;
  seqNo: number;
  energyWh: number;
  inUse: boolean;
  ready: boolean;
  timers: NodeJS.Timeout[];
}

const emptyKinds = (): Record<TelemetryKind, number> => ({ heartbeat: 0, status: 0, meter: 0 });
/** Milliseconds since the epoch, with a fraction: comparable between the bench's processes. */
const epochNow = () => performance.timeOrigin + performance.now();
const count = (tally: Record<string, number>, key: string) => {
  tally[key] = (tally[key] ?? 0) + 1;
};

function runFleet(order: IdleFleetOrder, report: (message: FleetMessage) => void) {
  const state: IdleFleetReport = {
    connected: 0,
    failed: 0,
    closed: 0,
    retries: 0,
    heartbeatsAnswered: 0,
    ready: 0,
    stepSent: 0,
    stepAnswered: 0,
    stormReady: 0,
    stormRefused: 0,
    commandsReceived: {},
  };
  const sockets = new Set<WebSocket>();
  const timers: NodeJS.Timeout[] = [];
  const pending = new Map<string, Pending>();
  const chargePoints = new Map<WebSocket, ChargePoint>();
  let nextId = 0;
  /** Set by stop(): the sockets it closes are not reconnected. */
  let stopped = false;
  let step = 0;
  let stepRunning = false;
  let currentIntervals: StepIntervals | undefined;
  let stepReport = newStepReport();
  let roundTrips = new LatencyHistogram();
  let meterRoundTrips = new LatencyHistogram();
  const storm = newStorm();

  function newStorm() {
    return {
      /** Set once the parent armed the storm: closes are the gateway's death, and wait for the order. */
      armed: false,
      /** Epoch milliseconds of the reconnect order. */
      orderedAt: undefined as number | undefined,
      /** Charge points whose sockets closed while armed: [identity, index]. */
      waiting: [] as [string, number][],
      readyIdentities: new Set<string>(),
      commandIdentities: new Set(order.storm?.commandIdentities ?? []),
      report: emptyStormReport(),
      bootRoundTrips: new LatencyHistogram(),
      connects: new LatencyHistogram(),
      readies: new LatencyHistogram(),
    };
  }

  function newStepReport(): TelemetryStepReport {
    return {
      sent: emptyKinds(),
      answered: emptyKinds(),
      errors: {},
      unanswered: 0,
      roundTripMs: {},
      meterRoundTripMs: {},
    };
  }

  const send = (
    socket: WebSocket,
    build: (id: string) => Call,
    kind: Pending['kind'],
    then?: Pending['then'],
    failed?: Pending['failed'],
  ) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    nextId += 1;
    const id = String(nextId);
    pending.set(id, { sentAt: performance.now(), kind, step, then, failed });
    socket.send(JSON.stringify(build(id)));
    if (kind !== 'setup' && stepRunning) {
      stepReport.sent[kind] += 1;
      state.stepSent += 1;
    }
  };

  const answered = (id: string, payload: Record<string, unknown> | undefined, errorCode?: string) => {
    const call = pending.get(id);
    if (!call) return;
    pending.delete(id);
    if (call.kind === 'setup') {
      if (errorCode) {
        state.lastError = `setup call answered ${errorCode}`;
        if (storm.orderedAt !== undefined) count(storm.report.callErrors, errorCode);
        call.failed?.(errorCode);
      } else call.then?.(payload ?? {});
      return;
    }
    if (call.step !== step || !stepRunning) return;
    if (errorCode) {
      stepReport.errors[errorCode] = (stepReport.errors[errorCode] ?? 0) + 1;
      return;
    }
    const roundTrip = performance.now() - call.sentAt;
    stepReport.answered[call.kind] += 1;
    state.stepAnswered += 1;
    roundTrips.record(roundTrip);
    if (call.kind === 'meter') meterRoundTrips.record(roundTrip);
  };

  /** Telemetry set-up after the socket opened: boot, the connectors' statuses, the transaction of a charging one. */
  const setUp = (chargePoint: ChargePoint) => {
    const { socket, version } = chargePoint;
    send(
      socket,
      (id) => bootNotification(version, id, 'Telemetry'),
      'setup',
      () => {
        send(socket, (id) => statusNotification(version, id, new Date(), { inUse: false }), 'setup');
        const ready = () => {
          chargePoint.ready = true;
          state.ready += 1;
          if (stepRunning && currentIntervals) schedule(chargePoint, currentIntervals);
        };
        if (!chargePoint.charging) return ready();
        const transactionId = `${chargePoint.identity}-${Date.now()}`;
        send(
          socket,
          (id) =>
            transactionStart(version, id, new Date(), {
              idTag: order.telemetry!.idTag,
              meterWh: chargePoint.energyWh,
              transactionId,
            }),
          'setup',
          (answer) => {
            chargePoint.transactionId = version === 'ocpp1.6' ? String(answer.transactionId) : transactionId;
            chargePoint.seqNo = 1;
            send(
              socket,
              (id) => statusNotification(version, id, new Date(), { inUse: true, charging: true }),
              'setup',
            );
            ready();
          },
        );
      },
    );
  };

  /**
   * Storm: BootNotification, then (accepted) a StatusNotification per connector at once; ready when all are answered.
   * A boot answered Pending or Rejected is sent again after the interval the answer gives (at least a second); a boot
   * or status answered with a CALLERROR starts the sequence again after the fixed retry delay, as firmware would.
   */
  const bootForStorm = (chargePoint: ChargePoint) => {
    const { socket, version, identity } = chargePoint;
    const sentAt = performance.now();
    let retrying = false;
    const again = () => {
      if (retrying) return;
      retrying = true;
      chargePoint.timers.push(setTimeout(() => bootForStorm(chargePoint), order.storm!.retryMs));
    };
    send(
      socket,
      (id) => bootNotification(version, id, 'Storm'),
      'setup',
      (answer) => {
        const inStorm = storm.orderedAt !== undefined;
        if (inStorm) {
          storm.bootRoundTrips.record(performance.now() - sentAt);
          count(storm.report.bootStatuses, String(answer.status));
        }
        if (answer.status !== 'Accepted') {
          const interval = Math.max(1, Number(answer.interval) || 1) * 1000;
          chargePoint.timers.push(setTimeout(() => bootForStorm(chargePoint), interval));
          return;
        }
        let unanswered = order.storm!.connectors;
        for (let connector = 1; connector <= order.storm!.connectors; connector += 1) {
          send(
            socket,
            (id) => connectorAvailable(version, id, new Date(), connector),
            'setup',
            () => {
              unanswered -= 1;
              if (unanswered > 0) return;
              if (storm.orderedAt === undefined) {
                state.ready += 1;
              } else if (!storm.readyIdentities.has(identity)) {
                storm.readyIdentities.add(identity);
                const at = epochNow();
                storm.readies.record(at - storm.orderedAt);
                storm.report.lastReadyAt = Math.max(storm.report.lastReadyAt ?? at, at);
                state.stormReady += 1;
              }
            },
            again,
          );
        }
      },
      again,
    );
  };

  /** A charge point's periodic messages at the step's intervals, each first sent anywhere within its interval. */
  const schedule = (chargePoint: ChargePoint, intervals: StepIntervals) => {
    const { socket, version } = chargePoint;
    const every = (intervalMs: number, fire: () => void) => {
      chargePoint.timers.push(
        setTimeout(
          () => {
            fire();
            chargePoint.timers.push(setInterval(fire, intervalMs));
          },
          firstDelayMs(intervalMs, Math.random()),
        ),
      );
    };
    every(intervals.heartbeatMs, () => send(socket, heartbeat, 'heartbeat'));
    every(intervals.statusMs, () => {
      chargePoint.inUse = !chargePoint.inUse;
      send(
        socket,
        (id) => statusNotification(version, id, new Date(), { inUse: chargePoint.inUse }),
        'status',
      );
    });
    if (chargePoint.charging && chargePoint.transactionId !== undefined) {
      every(intervals.meterMs, () => {
        chargePoint.energyWh += 30;
        const seqNo = chargePoint.seqNo;
        chargePoint.seqNo += 1;
        send(
          socket,
          (id) =>
            meterValues(version, id, new Date(), {
              transactionId: chargePoint.transactionId!,
              seqNo,
              energyWh: chargePoint.energyWh,
              measurands: order.telemetry!.measurands,
            }),
          'meter',
        );
      });
    }
  };

  const unschedule = (chargePoint: ChargePoint) => {
    for (const timer of chargePoint.timers) clearInterval(timer);
    chargePoint.timers = [];
  };

  const connect = (identity: string, index: number, attempt = 1): void => {
    const protocol = versionOf(index);
    const socket = new WebSocket(`${order.ocppUrl}/ocpp/${order.tenant}/${identity}`, [protocol], {
      perMessageDeflate: false,
    });
    sockets.add(socket);
    if (storm.orderedAt !== undefined) storm.report.attempts += 1;
    let open = false;
    socket.on('open', () => {
      open = true;
      state.connected += 1;
      if (order.storm) {
        if (storm.orderedAt !== undefined) storm.connects.record(epochNow() - storm.orderedAt);
        const chargePoint: ChargePoint = {
          socket,
          version: protocol,
          charging: false,
          identity,
          seqNo: 0,
          energyWh: 0,
          inUse: false,
          ready: false,
          timers: [],
        };
        chargePoints.set(socket, chargePoint);
        bootForStorm(chargePoint);
        return;
      }
      if (order.telemetry) {
        const chargePoint: ChargePoint = {
          socket,
          version: protocol,
          charging: isCharging(index, order.telemetry.chargingShare),
          identity,
          seqNo: 0,
          energyWh: 1000,
          inUse: false,
          ready: false,
          timers: [],
        };
        chargePoints.set(socket, chargePoint);
        setUp(chargePoint);
        return;
      }
      socket.send(JSON.stringify(bootNotification(protocol, randomUUID(), 'Idle')));
      const firstBeat = Math.random() * order.heartbeatSeconds * 1000;
      timers.push(
        setTimeout(() => {
          const beat = () => socket.send(JSON.stringify(heartbeat(randomUUID())));
          beat();
          timers.push(setInterval(beat, order.heartbeatSeconds * 1000));
        }, firstBeat),
      );
    });
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as unknown[];
      if (message[0] === 3 && typeof (message[2] as { currentTime?: unknown })?.currentTime === 'string') {
        state.heartbeatsAnswered += 1;
      }
      if (message[0] === 3) answered(String(message[1]), message[2] as Record<string, unknown>);
      if (message[0] === 4) answered(String(message[1]), undefined, String(message[2]));
      if (message[0] === 2 && storm.commandIdentities.has(identity) && isRemoteStart(message[2])) {
        const params = message[3] as { idTag?: string; idToken?: { idToken?: string } };
        (state.commandsReceived[identity] ??= []).push(String(params.idTag ?? params.idToken?.idToken));
        socket.send(JSON.stringify([3, message[1], REMOTE_START_ACCEPTED]));
      } else if (message[0] === 2) socket.send(JSON.stringify([4, message[1], 'NotImplemented', '', {}]));
    });
    let refused = false;
    socket.on('unexpected-response', (_request, response) => {
      refused = true;
      state.lastError = `upgrade answered ${response.statusCode}`;
      if (storm.orderedAt !== undefined) {
        count(storm.report.refusedBy, String(response.statusCode));
        state.stormRefused += 1;
      }
      socket.terminate();
    });
    // Not the error of the termination that follows a refusal ("closed before the connection was established").
    socket.on('error', (error) => {
      if (refused) return;
      state.lastError = error.message;
      if (storm.orderedAt !== undefined && !open) count(storm.report.errorsBy, error.message);
    });
    socket.on('close', () => {
      sockets.delete(socket);
      if (open) {
        state.connected -= 1;
        state.closed += 1;
        const chargePoint = chargePoints.get(socket);
        chargePoints.delete(socket);
        if (chargePoint) unschedule(chargePoint);
        if (!order.storm || stopped) return;
        // The gateway died with it: it reconnects on the order. Closed after the order: a drop, and back after the delay.
        if (storm.armed && storm.orderedAt === undefined) storm.waiting.push([identity, index]);
        else {
          if (storm.orderedAt !== undefined) storm.report.dropped += 1;
          timers.push(setTimeout(() => connect(identity, index), order.storm.retryMs));
        }
      } else if (order.storm && storm.orderedAt !== undefined) {
        // A refused or failed reconnect of the storm is tried again after the fixed delay, as long as it takes.
        state.retries += 1;
        if (!stopped) timers.push(setTimeout(() => connect(identity, index), order.storm.retryMs));
      } else if (attempt < MAX_ATTEMPTS) {
        // A refused or failed connect is tried again later, as a charge point's firmware does.
        state.retries += 1;
        timers.push(
          setTimeout(() => connect(identity, index, attempt + 1), 2000 + Math.random() * 3000 * attempt),
        );
      } else state.failed += 1;
    });
  };

  let next = 0;
  const firstIndex = order.firstIndex ?? 0;
  const perTick = Math.max(1, Math.round(order.connectsPerSecond / 20));
  const opener = setInterval(() => {
    for (let i = 0; i < perTick && next < order.identities.length; i += 1, next += 1) {
      connect(order.identities[next], firstIndex + next);
    }
    if (next >= order.identities.length) clearInterval(opener);
  }, 50);
  // The storm's progress is read four times a second.
  const reporter = setInterval(() => report({ state: { ...state } }), order.storm ? 250 : 1000);

  return {
    /** From now on a closed socket waits for reconnect(): the gateway is about to be killed. */
    armStorm() {
      storm.armed = true;
    },
    /** Every charge point whose socket closed reconnects now, all in this one turn of the loop. */
    reconnect() {
      storm.orderedAt = epochNow();
      for (const [identity, index] of storm.waiting.splice(0)) connect(identity, index);
      report({ state: { ...state } });
    },
    endStorm() {
      report({
        stormReport: {
          ...storm.report,
          ready: storm.readyIdentities.size,
          bootRoundTripMs: storm.bootRoundTrips.buckets,
          connectMs: storm.connects.buckets,
          readyMs: storm.readies.buckets,
        },
      });
    },
    startStep(intervals: StepIntervals) {
      step += 1;
      stepRunning = true;
      currentIntervals = intervals;
      stepReport = newStepReport();
      roundTrips = new LatencyHistogram();
      meterRoundTrips = new LatencyHistogram();
      state.stepSent = 0;
      state.stepAnswered = 0;
      for (const chargePoint of chargePoints.values())
        if (chargePoint.ready) schedule(chargePoint, intervals);
    },
    /** Stops sending, waits for the step's calls to be answered (at most DRAIN_MS), then reports the step. */
    endStep() {
      for (const chargePoint of chargePoints.values()) unschedule(chargePoint);
      const began = performance.now();
      const finish = () => {
        const open = [...pending.values()].filter(
          (call) => call.step === step && call.kind !== 'setup',
        ).length;
        if (open > 0 && performance.now() - began < DRAIN_MS) {
          timers.push(setTimeout(finish, 50));
          return;
        }
        stepRunning = false;
        stepReport.unanswered = open;
        stepReport.roundTripMs = roundTrips.buckets;
        stepReport.meterRoundTripMs = meterRoundTrips.buckets;
        report({ stepReport });
      };
      finish();
    },
    stop() {
      stopped = true;
      clearInterval(opener);
      clearInterval(reporter);
      for (const timer of timers) clearInterval(timer);
      for (const chargePoint of chargePoints.values()) unschedule(chargePoint);
      for (const socket of sockets) socket.terminate();
    },
  };
}

function isRemoteStart(action: unknown): boolean {
  return action === 'RemoteStartTransaction' || action === 'RequestStartTransaction';
}

/** What the parent sends a fleet process. */
export type FleetOrder =
  | { start: IdleFleetOrder }
  | { step: StepIntervals }
  | { endStep: true }
  | { armStorm: true }
  | { reconnect: true }
  | { endStorm: true }
  | { stop: true };

if (process.send) {
  let fleet: ReturnType<typeof runFleet> | undefined;
  process.on('message', (message: FleetOrder) => {
    if ('start' in message) fleet = runFleet(message.start, (report) => process.send?.(report));
    if ('step' in message) fleet?.startStep(message.step);
    if ('endStep' in message) fleet?.endStep();
    if ('armStorm' in message) fleet?.armStorm();
    if ('reconnect' in message) fleet?.reconnect();
    if ('endStorm' in message) fleet?.endStorm();
    if ('stop' in message) {
      fleet?.stop();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
}
