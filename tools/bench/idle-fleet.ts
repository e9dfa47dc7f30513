import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
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
 * StatusNotification changes and meter values at the step's intervals, each call timed until its answer.
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

export type FleetMessage = { state: IdleFleetReport } | { stepReport: TelemetryStepReport };

const MAX_ATTEMPTS = 5;
/** How long a step's unanswered calls are waited for once it ends. */
const DRAIN_MS = 15_000;

interface Pending {
  sentAt: number;
  kind: TelemetryKind | 'setup';
  step: number;
  then?: (payload: Record<string, unknown>) => void;
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
  };
  const sockets: WebSocket[] = [];
  const timers: NodeJS.Timeout[] = [];
  const pending = new Map<string, Pending>();
  const chargePoints = new Map<WebSocket, ChargePoint>();
  let nextId = 0;
  let step = 0;
  let stepRunning = false;
  let currentIntervals: StepIntervals | undefined;
  let stepReport = newStepReport();
  let roundTrips = new LatencyHistogram();
  let meterRoundTrips = new LatencyHistogram();

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
  ) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    nextId += 1;
    const id = String(nextId);
    pending.set(id, { sentAt: performance.now(), kind, step, then });
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
      if (errorCode) state.lastError = `setup call answered ${errorCode}`;
      else call.then?.(payload ?? {});
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
    sockets.push(socket);
    let open = false;
    socket.on('open', () => {
      open = true;
      state.connected += 1;
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
      if (message[0] === 2) socket.send(JSON.stringify([4, message[1], 'NotImplemented', '', {}]));
    });
    let refused = false;
    socket.on('unexpected-response', (_request, response) => {
      refused = true;
      state.lastError = `upgrade answered ${response.statusCode}`;
      socket.terminate();
    });
    // Not the error of the termination that follows a refusal ("closed before the connection was established").
    socket.on('error', (error) => {
      if (!refused) state.lastError = error.message;
    });
    socket.on('close', () => {
      if (open) {
        state.connected -= 1;
        state.closed += 1;
        const chargePoint = chargePoints.get(socket);
        if (chargePoint) unschedule(chargePoint);
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
  const reporter = setInterval(() => report({ state: { ...state } }), 1000);

  return {
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
      clearInterval(opener);
      clearInterval(reporter);
      for (const timer of timers) clearInterval(timer);
      for (const chargePoint of chargePoints.values()) unschedule(chargePoint);
      for (const socket of sockets) socket.terminate();
    },
  };
}

/** What the parent sends a fleet process. */
export type FleetOrder =
  { start: IdleFleetOrder } | { step: StepIntervals } | { endStep: true } | { stop: true };

if (process.send) {
  let fleet: ReturnType<typeof runFleet> | undefined;
  process.on('message', (message: FleetOrder) => {
    if ('start' in message) fleet = runFleet(message.start, (report) => process.send?.(report));
    if ('step' in message) fleet?.startStep(message.step);
    if ('endStep' in message) fleet?.endStep();
    if ('stop' in message) {
      fleet?.stop();
      process.exit(0);
    }
  });
  process.on('disconnect', () => process.exit(0));
}
