export const TERMINAL_STATUSES = ['accepted', 'rejected', 'timeout', 'failed'] as const;
export const COMMAND_STATUSES = ['pending', 'sent', ...TERMINAL_STATUSES] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

/** The fields of a Command (spec) the history looks at, as the API returned them. */
export interface ObservedCommand {
  command_uuid: string;
  status: string;
  result?: unknown;
  completed_at?: string | null;
}

export interface StatusProblem {
  commandUuid: string;
  kind: 'went_backwards' | 'left_terminal_state' | 'unknown_status' | 'result_inconsistent';
  detail: string;
  /** When it was seen (ms since the epoch). */
  at: number;
}

export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

function rank(status: CommandStatus): number {
  if (status === 'pending') return 0;
  if (status === 'sent') return 1;
  return 2;
}

interface Seen {
  status: CommandStatus;
  at: number;
}

/**
 * Everything the polls saw of each command, checked as it arrives against the lifecycle of docs/commands.md: pending → sent →
 * one terminal status, never backwards, never out of a terminal state; `result` and `completed_at` null exactly while
 * the command is not terminal.
 */
export class StatusHistory {
  readonly problems: StatusProblem[] = [];
  private readonly latest = new Map<string, Seen>();
  private readonly firstTerminal = new Map<string, Seen>();

  observe(command: ObservedCommand, at: number): void {
    const uuid = command.command_uuid;
    if (!(COMMAND_STATUSES as readonly string[]).includes(command.status)) {
      this.problems.push({ commandUuid: uuid, kind: 'unknown_status', detail: String(command.status), at });
      return;
    }
    const status = command.status as CommandStatus;
    const terminal = isTerminalStatus(status);
    // The API leaves out what is unset (an open command has no result and no completed_at).
    const isSet = (value: unknown) => value !== null && value !== undefined;
    if (terminal !== isSet(command.result) || terminal !== isSet(command.completed_at)) {
      this.problems.push({
        commandUuid: uuid,
        kind: 'result_inconsistent',
        detail: `status ${status} with result ${JSON.stringify(command.result)}, completed_at ${command.completed_at}`,
        at,
      });
    }
    const previous = this.latest.get(uuid);
    const first = this.firstTerminal.get(uuid);
    if (first && status !== first.status) {
      this.problems.push({
        commandUuid: uuid,
        kind: 'left_terminal_state',
        detail: `${first.status} → ${status}`,
        at,
      });
    } else if (previous && rank(status) < rank(previous.status)) {
      this.problems.push({
        commandUuid: uuid,
        kind: 'went_backwards',
        detail: `${previous.status} → ${status}`,
        at,
      });
    }
    this.latest.set(uuid, { status, at });
    if (terminal && !first) this.firstTerminal.set(uuid, { status, at });
  }

  /** The status seen last; undefined when the command was never seen. */
  status(commandUuid: string): CommandStatus | undefined {
    return this.latest.get(commandUuid)?.status;
  }

  /** The terminal status seen first (the one that counts), and when. */
  terminal(commandUuid: string): { status: CommandStatus; at: number } | undefined {
    return this.firstTerminal.get(commandUuid);
  }

  isTerminal(commandUuid: string): boolean {
    return this.firstTerminal.has(commandUuid);
  }
}
