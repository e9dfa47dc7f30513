import { setTimeout as sleep } from 'node:timers/promises';
import type { PlannedCommand } from './command-plan.js';
import type { CreatedCommand, FinalState, PostNotCreated } from './fault-report.js';
import type { PlatformApiClient } from './platform-api-client.js';
import { isTerminalStatus, type ObservedCommand, StatusHistory } from './status-history.js';

const COMMANDS_PATH = '/api/v1/control/commands';

export interface DriverOptions {
  /** POSTs started per second. */
  rate: number;
  /** POSTs waiting for their answer at once at most (outages hold them back). */
  maxInFlight: number;
  /** How long one POST keeps retrying an outage. */
  retryForMs: number;
}

/**
 * Creates commands at a steady rate, each POST retried through outages with its Idempotency-Key, and keeps what the
 * platform answered: a command counts as created only with a 202.
 */
export class CommandDriver {
  readonly created: CreatedCommand[] = [];
  readonly postsNotCreated: PostNotCreated[] = [];
  posted = 0;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly api: PlatformApiClient,
    private readonly options: DriverOptions,
    private readonly onCreated: (command: CreatedCommand) => void,
  ) {}

  /** Posts plan(1), plan(2), ... until `keepGoing` says stop, then waits for the POSTs still out. */
  async run(plan: (nonce: number) => PlannedCommand, keepGoing: (posted: number) => boolean): Promise<void> {
    const intervalMs = 1000 / this.options.rate;
    let nextAt = Date.now();
    while (keepGoing(this.posted)) {
      while (this.inFlight.size >= this.options.maxInFlight) await Promise.race(this.inFlight);
      const waitMs = nextAt - Date.now();
      if (waitMs > 0) await sleep(waitMs);
      // After a stall (outage) go on at the normal rate rather than catching up in a burst.
      nextAt = Math.max(nextAt, Date.now() - intervalMs) + intervalMs;
      this.posted += 1;
      const post = this.post(plan(this.posted)).finally(() => this.inFlight.delete(post));
      this.inFlight.add(post);
    }
    await Promise.all(this.inFlight);
  }

  private async post(planned: PlannedCommand): Promise<void> {
    const firstAttemptAt = Date.now();
    const result = await this.api.request('POST', COMMANDS_PATH, {
      body: planned.body,
      headers: { 'idempotency-key': planned.idempotencyKey },
      retryUntil: firstAttemptAt + this.options.retryForMs,
    });
    if (!result.ok) {
      this.postsNotCreated.push({
        nonce: planned.nonce,
        gaveUp: true,
        reason: `${result.reason} (${result.attempts} attempts)`,
      });
      return;
    }
    const { status, body } = result.answer;
    const commandUuid = (body as { command?: { command_uuid?: unknown } })?.command?.command_uuid;
    if (status !== 202 || typeof commandUuid !== 'string') {
      this.postsNotCreated.push({
        nonce: planned.nonce,
        gaveUp: false,
        reason: `${status} ${JSON.stringify(body)}`,
      });
      return;
    }
    const command: CreatedCommand = {
      nonce: planned.nonce,
      commandUuid,
      type: planned.type,
      controllerUuid: planned.controllerUuid,
      firstAttemptAt,
      attempts: result.attempts,
    };
    this.created.push(command);
    this.onCreated(command);
  }
}

/** How many single commands one sweep reads at once. */
const POLL_CONCURRENCY = 8;
/** Terminal commands read again per sweep, to catch one that leaves its terminal state. */
const TERMINAL_RECHECKS_PER_SWEEP = 10;
const OPEN_STATUSES = ['pending', 'sent'] as const;

/**
 * Watches every command until it is terminal and feeds each observation to the status history (which checks the
 * lifecycle). A sweep lists the pending and the sent commands (50 a page: cheap however many are open), then reads
 * with GET /commands/{uuid} the open ones the lists did not show (they became terminal, or moved between pages), and
 * a few terminal ones again. A sweep that meets an outage is cut short; the next one starts over.
 */
export class StatusPoller {
  readonly history = new StatusHistory();
  private readonly open = new Set<string>();
  private readonly done: string[] = [];
  private readonly resultErrors = new Map<string, string>();
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly api: PlatformApiClient) {}

  track(commandUuid: string): void {
    if (!this.history.isTerminal(commandUuid)) this.open.add(commandUuid);
  }

  get openCount(): number {
    return this.open.size;
  }

  start(intervalMs: number): void {
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const started = Date.now();
        await this.sweep();
        await sleep(Math.max(0, intervalMs - (Date.now() - started)));
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Waits until nothing tracked is open or `deadline` passes; resolves with how many are still open. */
  async drain(deadline: number): Promise<number> {
    while (this.open.size > 0 && Date.now() < deadline) await sleep(250);
    return this.open.size;
  }

  /** Reads every command of the tenant through the list endpoint; returns the uuids it found. */
  async readAll(): Promise<string[]> {
    const found = await this.list('', Date.now() + 60_000);
    if (!found) throw new Error('listing the commands failed for a minute');
    return found;
  }

  /** Every page of the list with `filter` (a query string part); undefined when a page could not be read. */
  private async list(filter: string, retryUntil?: number): Promise<string[] | undefined> {
    const found: string[] = [];
    for (let page = 1; ; page += 1) {
      const result = await this.api.request(
        'GET',
        `${COMMANDS_PATH}?limit=50&page=${page}&order_by=%2Bcreated_at${filter}`,
        { retryUntil },
      );
      if (!result.ok || result.answer.status !== 200) return undefined;
      const body = result.answer.body as { commands: ObservedCommand[]; pagination: { has_more: boolean } };
      for (const command of body.commands) {
        this.observe(command);
        found.push(command.command_uuid);
      }
      if (!body.pagination.has_more) return found;
    }
  }

  finalState(commandUuid: string): FinalState {
    const terminal = this.history.terminal(commandUuid);
    return {
      status: terminal?.status ?? this.history.status(commandUuid),
      terminal: terminal !== undefined,
      terminalAt: terminal?.at,
      resultError: this.resultErrors.get(commandUuid),
    };
  }

  private async sweep(): Promise<void> {
    const listed = new Set<string>();
    for (const status of OPEN_STATUSES) {
      const found = await this.list(`&filter%5Bstatus%5D=${status}`);
      if (!found) return;
      for (const uuid of found) listed.add(uuid);
    }
    const rechecks = this.done.slice(-TERMINAL_RECHECKS_PER_SWEEP * 20);
    const sample = Array.from(
      { length: Math.min(TERMINAL_RECHECKS_PER_SWEEP, rechecks.length) },
      () => rechecks[Math.floor(Math.random() * rechecks.length)],
    );
    const queue = [...[...this.open].filter((uuid) => !listed.has(uuid)), ...sample];
    const worker = async (): Promise<void> => {
      for (let uuid = queue.shift(); uuid !== undefined; uuid = queue.shift()) await this.read(uuid);
    };
    await Promise.all(Array.from({ length: POLL_CONCURRENCY }, worker));
  }

  private async read(commandUuid: string): Promise<void> {
    const result = await this.api.request('GET', `${COMMANDS_PATH}/${commandUuid}`);
    if (result.ok && result.answer.status === 200) {
      this.observe((result.answer.body as { command: ObservedCommand }).command);
    }
  }

  private observe(command: ObservedCommand): void {
    const wasTerminal = this.history.isTerminal(command.command_uuid);
    this.history.observe(command, Date.now());
    if (isTerminalStatus(command.status) && !wasTerminal) {
      const error = (command.result as { error?: unknown } | null)?.error;
      if (typeof error === 'string') this.resultErrors.set(command.command_uuid, error);
      if (this.open.delete(command.command_uuid)) this.done.push(command.command_uuid);
    }
  }
}
