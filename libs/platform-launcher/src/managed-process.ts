import { type ChildProcess, spawn } from 'node:child_process';
import { CapturedOutput, type LineListener } from './captured-output.js';

export interface ProcessSpec {
  /** Names the process in output prefixes and error messages. */
  name: string;
  command: string;
  args?: string[];
  /** The child's whole environment (nothing is inherited implicitly). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Signal that asks the process to shut down (default SIGTERM; PostgreSQL's fast shutdown is SIGINT). */
  stopSignal?: NodeJS.Signals;
  /** How long `stop()` waits after the stop signal before SIGKILL (default 10 s). */
  stopGraceMs?: number;
  /**
   * Own process group: Ctrl-C in a terminal then reaches only the launcher, which stops its children in order.
   * Without it (the default) the children get the terminal's SIGINT too, which suits tests.
   */
  detached?: boolean;
  uid?: number;
  gid?: number;
  /** Every line the child prints, as it arrives (it is captured for `output()` either way). */
  onLine?: LineListener;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  error?: Error;
}

export function describeExit(exit: ProcessExit): string {
  if (exit.error) return `could not be started (${exit.error.message})`;
  if (exit.signal) return `was ended by ${exit.signal}`;
  return `exited with code ${exit.code}`;
}

/** Children still running when the launcher's own process exits get SIGKILL, so none outlive it. */
const running = new Set<ChildProcess>();
function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
}

/**
 * One child process that can be started, stopped (signal, then SIGKILL after a grace period), killed and started
 * again with the same command and environment. Its output is captured and optionally passed on line by line.
 */
export class ManagedProcess {
  readonly captured: CapturedOutput;
  private child: ChildProcess | undefined;
  private exitPromise: Promise<ProcessExit> | undefined;
  private lastExit: ProcessExit | undefined;

  constructor(readonly spec: ProcessSpec) {
    this.captured = new CapturedOutput({ onLine: spec.onLine });
  }

  get name(): string {
    return this.spec.name;
  }

  get pid(): number | undefined {
    return this.isRunning ? this.child?.pid : undefined;
  }

  get isRunning(): boolean {
    return this.child !== undefined && this.lastExit === undefined;
  }

  /** How the last run ended; undefined while it runs or before the first start. */
  get exit(): ProcessExit | undefined {
    return this.lastExit;
  }

  start(): void {
    if (this.isRunning) throw new Error(`${this.name} is already running (pid ${this.child?.pid})`);
    this.lastExit = undefined;
    const child = spawn(this.spec.command, this.spec.args ?? [], {
      env: this.spec.env,
      cwd: this.spec.cwd,
      detached: this.spec.detached ?? false,
      uid: this.spec.uid,
      gid: this.spec.gid,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => this.captured.write(chunk, 'stdout'));
    child.stderr?.on('data', (chunk: Buffer) => this.captured.write(chunk, 'stderr'));
    if (running.size === 0) process.on('exit', killLeftovers);
    running.add(child);
    this.exitPromise = new Promise<ProcessExit>((resolve) => {
      const finish = (exit: ProcessExit): void => {
        if (this.child !== child || this.lastExit) return;
        running.delete(child);
        if (running.size === 0) process.off('exit', killLeftovers);
        this.captured.flush();
        this.lastExit = exit;
        resolve(exit);
      };
      child.once('error', (error) => finish({ code: null, signal: null, error }));
      // 'close' comes after the output pipes are drained, so the captured output is complete.
      child.once('close', (code, signal) => finish({ code, signal }));
    });
  }

  /** Resolves when the current run ends (at once if it has already ended). */
  async waitForExit(): Promise<ProcessExit> {
    if (!this.exitPromise) throw new Error(`${this.name} was never started`);
    return this.exitPromise;
  }

  /** Sends the stop signal and waits; a child still running after the grace period gets SIGKILL. */
  async stop(graceMs = this.spec.stopGraceMs ?? 10000): Promise<ProcessExit | undefined> {
    if (!this.isRunning) return this.lastExit;
    this.signal(this.spec.stopSignal ?? 'SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    try {
      return await this.waitForExit();
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL, as a crash would: no shutdown hooks run. */
  async kill(): Promise<ProcessExit | undefined> {
    if (!this.isRunning) return this.lastExit;
    this.signal('SIGKILL');
    return this.waitForExit();
  }

  /** Stops the current run (if any) and starts the same command again. */
  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  output(): string {
    return this.captured.text();
  }

  /** The last lines of output, for error messages. */
  tail(lines = 30): string {
    return this.captured.tail(lines);
  }

  private signal(signal: NodeJS.Signals): void {
    const child = this.child;
    if (!child || !this.isRunning) return;
    try {
      // A detached child leads its own process group: signal the group, so helpers it forked go too.
      if (this.spec.detached && child.pid) process.kill(-child.pid, signal);
      else child.kill(signal);
    } catch {
      child.kill(signal);
    }
  }
}

/** Runs a command to completion (e.g. a migrate entry); rejects unless it exits 0, with the tail of its output. */
export async function runToCompletion(spec: ProcessSpec, timeoutMs = 120000): Promise<ManagedProcess> {
  const child = new ManagedProcess(spec);
  child.start();
  const timer = setTimeout(() => {
    child.captured.note(`[launcher] ${spec.name} did not finish within ${timeoutMs} ms; killing it`);
    void child.kill();
  }, timeoutMs);
  try {
    const exit = await child.waitForExit();
    if (exit.code !== 0)
      throw new Error(`${spec.name} ${describeExit(exit)}; its last output:\n${child.tail()}`);
    return child;
  } finally {
    clearTimeout(timer);
  }
}
