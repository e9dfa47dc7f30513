import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type {
  FleetMessage,
  FleetOrder,
  IdleFleetOrder,
  IdleFleetReport,
  TelemetryStepReport,
} from './idle-fleet.js';
import type { StormFleetReport } from './storm-plan.js';
import type { StepIntervals } from './telemetry-schedule.js';

/** Charge points per child process: its sockets stay well within a process's open-file limit. */
const PER_PROCESS = 5000;
/** A fleet whose count of ready charge points stood still this long is as ready as it gets. */
const SETTLE_STALL_MS = 60_000;

export type FleetTotals = Pick<
  IdleFleetReport,
  | 'connected'
  | 'failed'
  | 'retries'
  | 'heartbeatsAnswered'
  | 'ready'
  | 'stepSent'
  | 'stepAnswered'
  | 'stormReady'
  | 'stormRefused'
>;

/**
 * A fleet of plain `ws` charge points (idle-fleet.ts) spread over child processes of PER_PROCESS each, which report
 * their state every second; the telemetry phase also runs steps on them, the reconnect-storm phase its storm.
 */
export class FleetProcesses {
  private readonly states: IdleFleetReport[] = [];
  private stepReports: TelemetryStepReport[] = [];
  private stepReported: (() => void) | undefined;
  private stormReports: StormFleetReport[] = [];
  private stormReported: (() => void) | undefined;

  private constructor(private readonly children: ChildProcess[]) {}

  static start(
    order: Omit<IdleFleetOrder, 'identities' | 'firstIndex'>,
    identities: string[],
  ): FleetProcesses {
    const entry = fileURLToPath(new URL('./idle-fleet.js', import.meta.url));
    const processes = Math.ceil(identities.length / PER_PROCESS);
    const children: ChildProcess[] = [];
    const fleet = new FleetProcesses(children);
    for (let index = 0; index < processes; index += 1) {
      const child = fork(entry, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      child.on('message', (message: FleetMessage) => fleet.received(index, message));
      fleet.send(child, {
        start: {
          ...order,
          identities: identities.slice(index * PER_PROCESS, (index + 1) * PER_PROCESS),
          firstIndex: index * PER_PROCESS,
          connectsPerSecond: order.connectsPerSecond / processes,
        },
      });
      children.push(child);
    }
    return fleet;
  }

  totals(): FleetTotals {
    const sum = (key: keyof FleetTotals) =>
      this.states.reduce((total, state) => total + ((state?.[key] as number | undefined) ?? 0), 0);
    return {
      connected: sum('connected'),
      failed: sum('failed'),
      retries: sum('retries'),
      heartbeatsAnswered: sum('heartbeatsAnswered'),
      ready: sum('ready'),
      stepSent: sum('stepSent'),
      stepAnswered: sum('stepAnswered'),
      stormReady: sum('stormReady'),
      stormRefused: sum('stormRefused'),
    };
  }

  /**
   * Resolves once `count` charge points are ready or gave up, or when a minute passed without one more; `show` gets
   * the totals every second.
   */
  async settle(count: number, show: (totals: FleetTotals) => void): Promise<void> {
    let [settled, changedAt] = [-1, performance.now()];
    while (settled < count && performance.now() - changedAt < SETTLE_STALL_MS) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const totals = this.totals();
      show(totals);
      if (totals.ready + totals.failed !== settled)
        [settled, changedAt] = [totals.ready + totals.failed, performance.now()];
    }
  }

  /** The id tags each charge point of the storm's command sample received, in order of arrival. */
  commandsReceived(): Record<string, string[]> {
    return Object.assign({}, ...this.states.map((state) => state?.commandsReceived ?? {})) as Record<
      string,
      string[]
    >;
  }

  get lastError(): string | undefined {
    return this.states.find((state) => state?.lastError)?.lastError;
  }

  startStep(intervals: StepIntervals): void {
    this.stepReports = [];
    for (const child of this.children) this.send(child, { step: intervals });
  }

  /** Ends the step everywhere and gives each child's report once its calls are answered. */
  endStep(): Promise<TelemetryStepReport[]> {
    return new Promise((resolve) => {
      this.stepReported = () => {
        if (this.stepReports.length < this.children.length) return;
        this.stepReported = undefined;
        resolve(this.stepReports);
      };
      for (const child of this.children) this.send(child, { endStep: true });
    });
  }

  /** From now on the sockets the gateway's death closes wait for reconnect(). */
  armStorm(): void {
    for (const child of this.children) this.send(child, { armStorm: true });
  }

  /** Orders every waiting charge point of every child to reconnect at once. */
  reconnect(): void {
    for (const child of this.children) this.send(child, { reconnect: true });
  }

  /** Each child's account of the storm. */
  endStorm(): Promise<StormFleetReport[]> {
    return new Promise((resolve) => {
      this.stormReports = [];
      this.stormReported = () => {
        if (this.stormReports.length < this.children.length) return;
        this.stormReported = undefined;
        resolve(this.stormReports);
      };
      for (const child of this.children) this.send(child, { endStorm: true });
    });
  }

  stop(): void {
    for (const child of this.children) this.send(child, { stop: true });
  }

  private send(child: ChildProcess, order: FleetOrder): void {
    child.send(order);
  }

  private received(index: number, message: FleetMessage): void {
    if ('state' in message) this.states[index] = message.state;
    else if ('stormReport' in message) {
      this.stormReports.push(message.stormReport);
      this.stormReported?.();
    } else {
      this.stepReports.push(message.stepReport);
      this.stepReported?.();
    }
  }
}
