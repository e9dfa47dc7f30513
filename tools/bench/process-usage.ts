import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system, seconds) and resident memory (bytes) of a process, from /proc. */
export interface ProcessReading {
  cpuSeconds: number;
  rssBytes: number;
}

export function readProcess(pid: number, proc = '/proc'): ProcessReading | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuTicks = Number(fields[11]) + Number(fields[12]);
    const rssKb = Number(
      /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`${proc}/${pid}/status`, 'utf8'))?.[1] ?? 0,
    );
    return { cpuSeconds: cpuTicks / CLOCK_TICKS_PER_SECOND, rssBytes: rssKb * 1024 };
  } catch {
    return undefined; // it exited
  }
}

/** The machine's CPU time since boot (seconds summed over all cores) and how much of it was busy, from /proc/stat. */
export interface MachineReading {
  totalSeconds: number;
  busySeconds: number;
}

export function readMachine(proc = '/proc'): MachineReading {
  const cpuLine = readFileSync(`${proc}/stat`, 'utf8').split('\n')[0];
  // cpu user nice system idle iowait irq softirq steal ...
  const ticks = cpuLine.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  const waiting = ticks[3] + ticks[4];
  return {
    totalSeconds: total / CLOCK_TICKS_PER_SECOND,
    busySeconds: (total - waiting) / CLOCK_TICKS_PER_SECOND,
  };
}

/** Named in the usage summary: every process of the machine, PostgreSQL and NATS included. */
export const MACHINE_USAGE = 'machine (all processes)';

/**
 * The process of each platform service listening on the given ports: the one whose command line runs the service's
 * `main.js` and whose environment has that API_PORT (several platforms may run on one machine), other than `except`
 * (further replicas of a service, counted apart).
 */
export function findServicePids(
  services: readonly string[],
  apiPort: number,
  proc = '/proc',
  except: ReadonlySet<number> = new Set(),
): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry) || except.has(Number(entry))) continue;
    try {
      const commandLine = readFileSync(`${proc}/${entry}/cmdline`, 'utf8');
      const service = services.find((name) => commandLine.includes(`/apps/${name}/src/main.js`));
      if (!service) continue;
      const environment = readFileSync(`${proc}/${entry}/environ`, 'utf8').split('\0');
      if (environment.includes(`API_PORT=${apiPort}`)) found.set(service, Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * The processes whose command line contains every one of `parts` (e.g. the PostgreSQL backends of one database, whose
 * process titles name it: `postgres: 15/main: postgres cpc_bench_1 127.0.0.1(5432) idle`).
 */
export function findPidsByCommandLine(parts: readonly string[], proc = '/proc'): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`${proc}/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (parts.every((part) => commandLine.includes(part))) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/**
 * CPU seconds a changing set of processes spent since `begin()`: a process that appears later counts from its start,
 * one that exits keeps what it had spent when last seen.
 */
export class ProcessGroupCpu {
  private readonly baseline = new Map<number, number>();
  private readonly last = new Map<number, number>();

  constructor(
    private readonly find: () => number[],
    private readonly proc = '/proc',
  ) {}

  begin(): void {
    this.baseline.clear();
    this.last.clear();
    for (const pid of this.find()) {
      const reading = readProcess(pid, this.proc);
      if (reading) this.baseline.set(pid, reading.cpuSeconds);
    }
  }

  sample(): void {
    for (const pid of this.find()) {
      const reading = readProcess(pid, this.proc);
      if (!reading) continue;
      if (!this.baseline.has(pid)) this.baseline.set(pid, 0);
      this.last.set(pid, reading.cpuSeconds);
    }
  }

  /** CPU seconds since begin(), summed over the group. */
  cpuSeconds(): number {
    this.sample();
    let sum = 0;
    for (const [pid, cpu] of this.last) sum += cpu - (this.baseline.get(pid) ?? cpu);
    return Math.round(sum * 100) / 100;
  }
}

export interface UsageSummary {
  /** Average CPU over the phase, percent of one core. */
  cpuPercent: number;
  /** CPU time spent during the phase, seconds (user + system). */
  cpuSeconds?: number;
  /** Highest resident memory seen during the phase, MiB (null for the machine as a whole). */
  maxRssMiB: number | null;
}

/** Samples the given processes once a second; `summary()` gives CPU and memory of each since the last `reset()`. */
export class ProcessUsageSampler {
  private start = new Map<string, { at: number; reading: ProcessReading }>();
  private maxRss = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private machineStart: MachineReading | undefined;

  private groupStart = 0;

  /** `groups`: sets of processes summed under one name, found anew at every sample (nats-server, PostgreSQL). */
  constructor(
    private readonly pids: Map<string, number>,
    private readonly cores: number,
    private readonly groups = new Map<string, ProcessGroupCpu>(),
  ) {}

  begin(): void {
    this.machineStart = readMachine();
    this.start.clear();
    this.maxRss.clear();
    for (const [name, pid] of this.pids) {
      const reading = readProcess(pid);
      if (reading) this.start.set(name, { at: performance.now(), reading });
    }
    for (const group of this.groups.values()) group.begin();
    this.groupStart = performance.now();
    clearInterval(this.timer);
    this.timer = setInterval(() => this.sample(), 1000);
    this.timer.unref();
  }

  summary(): Record<string, UsageSummary> {
    this.sample();
    const result: Record<string, UsageSummary> = {};
    for (const [name, pid] of this.pids) {
      const first = this.start.get(name);
      const now = readProcess(pid);
      if (!first || !now) continue;
      const seconds = (performance.now() - first.at) / 1000;
      const cpuSeconds = now.cpuSeconds - first.reading.cpuSeconds;
      result[name] = {
        cpuPercent: Math.round((cpuSeconds / seconds) * 1000) / 10,
        cpuSeconds: Math.round(cpuSeconds * 100) / 100,
        maxRssMiB: Math.round((this.maxRss.get(name) ?? now.rssBytes) / 1024 / 102.4) / 10,
      };
    }
    const groupSeconds = (performance.now() - this.groupStart) / 1000;
    for (const [name, group] of this.groups) {
      const cpuSeconds = group.cpuSeconds();
      result[name] = {
        cpuPercent: Math.round((cpuSeconds / groupSeconds) * 1000) / 10,
        cpuSeconds,
        maxRssMiB: null,
      };
    }
    if (this.machineStart) {
      const now = readMachine();
      const busy =
        (now.busySeconds - this.machineStart.busySeconds) /
        (now.totalSeconds - this.machineStart.totalSeconds);
      // Percent of one core, as for the processes (at most 100 times the number of cores).
      result[MACHINE_USAGE] = {
        cpuPercent: Math.round(busy * this.cores * 1000) / 10,
        cpuSeconds: Math.round((now.busySeconds - this.machineStart.busySeconds) * 100) / 100,
        maxRssMiB: null,
      };
    }
    return result;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sample(): void {
    for (const group of this.groups.values()) group.sample();
    for (const [name, pid] of this.pids) {
      const reading = readProcess(pid);
      if (reading) this.maxRss.set(name, Math.max(this.maxRss.get(name) ?? 0, reading.rssBytes));
    }
  }
}
