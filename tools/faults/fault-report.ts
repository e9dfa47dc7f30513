import type { ExpectedStatus } from './charge-point-answers.js';
import type { FaultCommandType } from './command-plan.js';
import { COMMAND_STATUSES, type CommandStatus, type StatusProblem } from './status-history.js';
import type { WebhookCheck } from './webhook-witness.js';

/** A command the platform answered 202 for. */
export interface CreatedCommand {
  nonce: number;
  commandUuid: string;
  type: FaultCommandType;
  controllerUuid: string;
  /** When the first attempt of its POST went out (ms since the epoch). */
  firstAttemptAt: number;
  attempts: number;
}

/** A POST that never got its 202. */
export interface PostNotCreated {
  nonce: number;
  /** True when it met only outages until the retry window closed; false when the API refused it outright. */
  gaveUp: boolean;
  reason: string;
}

/** More POSTs than this share giving up means the platform did not recover, whatever else the run shows. */
export const MAX_GIVEN_UP_SHARE = 0.1;

/** A call a simulated charge point received. */
export interface ReceivedCall {
  /** Undefined for calls no planned command explains. */
  nonce: number | undefined;
  controllerUuid: string;
  identity: string;
  action: string;
  /** The OCPP-J message id. */
  messageId: string;
  at: number;
  /** The status the platform must derive from the answer the charge point gave. */
  expected: ExpectedStatus;
}

/** A command's state at the end: the terminal status seen first (or the last status seen, if none). */
export interface FinalState {
  status: CommandStatus | undefined;
  terminal: boolean;
  /** When the terminal status was first seen. */
  terminalAt?: number;
  resultError?: string;
}

export interface FaultRecord {
  name: string;
  killedAt: number;
  /** When it was started again (for the gateway-instance fault: after the others took its charge points). */
  restartedAt: number;
  /** When it answered ready (or the server answered) again. */
  readyAt: number;
}

export interface ReportInput {
  parameters: Record<string, unknown>;
  startedAt: number;
  finishedAt: number;
  /** POSTs the driver started (one per nonce). */
  posted: number;
  created: readonly CreatedCommand[];
  /** POSTs that never got a 202 (retries exhausted or an unexpected status). */
  postsNotCreated: readonly PostNotCreated[];
  finalStates: ReadonlyMap<string, FinalState>;
  statusProblems: readonly StatusProblem[];
  received: readonly ReceivedCall[];
  faults: readonly FaultRecord[];
  /** Controllers of the simulated charge points. */
  chargePoints: readonly string[];
  /** Commands the list endpoint knows that no 202 announced (a retried POST that created a second command, ...). */
  unannouncedCommands: readonly string[];
  /** Processes that died without being killed by the harness. */
  unexpectedExits: readonly { name: string; at: number; how: string }[];
  /** The webhooks of the commands' status changes, as the run's receiver got them. */
  webhooks?: WebhookCheck;
}

export interface FaultRecovery {
  fault: string;
  /** From the kill until it answered ready again. */
  readyAfterMs: number;
  /** From the kill until every charge point completed (accepted/rejected) a command posted after the kill. */
  recoveredAfterMs: number | null;
  /**
   * From ready again until then (recoveredAfterMs − readyAfterMs): how long the platform took once the process was
   * back; 0 when every charge point had completed one before (its charge points moved to another gateway instance).
   */
  recoveredAfterReadyMs: number | null;
}

export interface FaultReport {
  passed: boolean;
  failures: string[];
  parameters: Record<string, unknown>;
  durationMs: number;
  counts: {
    posted: number;
    created: number;
    terminal: number;
    lost: number;
    deliveredTwice: number;
    postsGivenUp: number;
    postsRefused: number;
    statusProblems: number;
    wrongOutcome: number;
    answeredButNotReceived: number;
    receivedByWrongChargePoint: number;
    offlineButDelivered: number;
    receivedWithoutCreation: number;
    unannouncedCommands: number;
    unexpectedExits: number;
  };
  perStatus: Record<string, number>;
  perResultError: Record<string, number>;
  recovery: FaultRecovery[];
  webhooks?: WebhookCheck;
  /** Up to SAMPLE_SIZE examples of each kind of trouble, for the bug report. */
  samples: {
    lost: { commandUuid: string; nonce: number; type: string; lastStatus: string | undefined }[];
    deliveredTwice: {
      nonce: number;
      commandUuid?: string;
      calls: Omit<ReceivedCall, 'nonce' | 'expected'>[];
    }[];
    statusProblems: StatusProblem[];
    wrongOutcome: { commandUuid: string; nonce: number; status: string | undefined; expected: string }[];
    answeredButNotReceived: { commandUuid: string; nonce: number; status: string | undefined }[];
    offlineButDelivered: { commandUuid: string; nonce: number; receivedAt: number[]; terminalAt?: number }[];
    postsNotCreated: PostNotCreated[];
    unannouncedCommands: string[];
    unexpectedExits: { name: string; at: number; how: string }[];
  };
}

const SAMPLE_SIZE = 20;

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/**
 * How long after each fault every charge point had again completed a command posted after the fault: the platform
 * as a whole works again, not only the process that was restarted.
 */
export function recoveryTimes(
  faults: readonly FaultRecord[],
  created: readonly CreatedCommand[],
  finalStates: ReadonlyMap<string, FinalState>,
  chargePoints: readonly string[],
): FaultRecovery[] {
  return faults.map((fault) => {
    let latest = fault.killedAt;
    for (const controllerUuid of chargePoints) {
      let earliest: number | undefined;
      for (const command of created) {
        if (command.controllerUuid !== controllerUuid || command.firstAttemptAt < fault.killedAt) continue;
        const state = finalStates.get(command.commandUuid);
        const answered = state?.status === 'accepted' || state?.status === 'rejected';
        if (
          answered &&
          state.terminalAt !== undefined &&
          (earliest === undefined || state.terminalAt < earliest)
        )
          earliest = state.terminalAt;
      }
      if (earliest === undefined)
        return {
          fault: fault.name,
          readyAfterMs: fault.readyAt - fault.killedAt,
          recoveredAfterMs: null,
          recoveredAfterReadyMs: null,
        };
      latest = Math.max(latest, earliest);
    }
    return {
      fault: fault.name,
      readyAfterMs: fault.readyAt - fault.killedAt,
      recoveredAfterMs: latest - fault.killedAt,
      recoveredAfterReadyMs: Math.max(0, latest - fault.readyAt),
    };
  });
}

export function buildFaultReport(input: ReportInput): FaultReport {
  const byNonce = new Map(input.created.map((command) => [command.nonce, command]));
  const receivedByNonce = groupBy(
    input.received.filter((call) => call.nonce !== undefined),
    (call) => call.nonce!,
  );

  const lost = input.created.filter((command) => !input.finalStates.get(command.commandUuid)?.terminal);
  const duplicates = [...receivedByNonce.entries()].filter(([, calls]) => calls.length > 1);
  const wrongChargePoint = input.received.filter((call) => {
    const command = call.nonce === undefined ? undefined : byNonce.get(call.nonce);
    return command !== undefined && command.controllerUuid !== call.controllerUuid;
  });
  const receivedWithoutCreation = [...receivedByNonce.keys()].filter((nonce) => !byNonce.has(nonce));

  const wrongOutcome: FaultReport['samples']['wrongOutcome'] = [];
  const answeredButNotReceived: FaultReport['samples']['answeredButNotReceived'] = [];
  const offlineButDelivered: FaultReport['samples']['offlineButDelivered'] = [];
  for (const command of input.created) {
    const state = input.finalStates.get(command.commandUuid);
    const calls = receivedByNonce.get(command.nonce) ?? [];
    if (state?.status === 'accepted' || state?.status === 'rejected') {
      if (calls.length === 0)
        answeredButNotReceived.push({
          commandUuid: command.commandUuid,
          nonce: command.nonce,
          status: state.status,
        });
      else if (calls[0].expected !== state.status)
        wrongOutcome.push({
          commandUuid: command.commandUuid,
          nonce: command.nonce,
          status: state.status,
          expected: calls[0].expected,
        });
    }
    if (state?.resultError === 'charge_point_offline' && calls.length > 0)
      offlineButDelivered.push({
        commandUuid: command.commandUuid,
        nonce: command.nonce,
        receivedAt: calls.map((call) => call.at),
        terminalAt: state.terminalAt,
      });
  }

  const terminalStates = input.created
    .map((command) => input.finalStates.get(command.commandUuid))
    .filter((state): state is FinalState => state?.terminal === true);
  const perStatus: Record<string, number> = Object.fromEntries(COMMAND_STATUSES.map((status) => [status, 0]));
  for (const command of input.created) {
    const status = input.finalStates.get(command.commandUuid)?.status ?? 'never_seen';
    perStatus[status] = (perStatus[status] ?? 0) + 1;
  }

  const counts: FaultReport['counts'] = {
    posted: input.posted,
    created: input.created.length,
    terminal: terminalStates.length,
    lost: lost.length,
    deliveredTwice: duplicates.length,
    postsGivenUp: input.postsNotCreated.filter((post) => post.gaveUp).length,
    postsRefused: input.postsNotCreated.filter((post) => !post.gaveUp).length,
    statusProblems: input.statusProblems.length,
    wrongOutcome: wrongOutcome.length,
    answeredButNotReceived: answeredButNotReceived.length,
    receivedByWrongChargePoint: wrongChargePoint.length,
    offlineButDelivered: offlineButDelivered.length,
    receivedWithoutCreation: receivedWithoutCreation.length,
    unannouncedCommands: input.unannouncedCommands.length,
    unexpectedExits: input.unexpectedExits.length,
  };

  const failures: string[] = [];
  const mustBeZero: [keyof FaultReport['counts'], string][] = [
    ['lost', 'commands never reached a terminal state'],
    ['deliveredTwice', 'commands reached a charge point more than once'],
    [
      'statusProblems',
      'status observations broke the lifecycle (backwards, out of a terminal state, inconsistent)',
    ],
    ['wrongOutcome', 'commands ended with another status than the charge point answered'],
    ['answeredButNotReceived', 'commands accepted/rejected that no charge point received'],
    ['receivedByWrongChargePoint', 'calls reached another charge point than the command addressed'],
    ['offlineButDelivered', 'commands failed as charge_point_offline although a charge point received them'],
    ['postsRefused', 'POSTs were refused (an answer other than 202 that is no outage)'],
    // A service must ride out its peers' outages: one that exits on its own has crashed.
    ['unexpectedExits', 'processes exited on their own (a crash; see their logs in the work directory)'],
  ];
  for (const [key, meaning] of mustBeZero) {
    if (counts[key] > 0) failures.push(`${counts[key]} ${meaning}`);
  }
  if (counts.postsGivenUp > MAX_GIVEN_UP_SHARE * counts.posted)
    failures.push(`${counts.postsGivenUp} POSTs met only outages until their retry window closed`);
  // A POST given up may still have created its command (its 202 was lost): more unannounced commands than that
  // means one request made two.
  if (counts.unannouncedCommands > counts.postsGivenUp)
    failures.push(
      `${counts.unannouncedCommands} commands exist that no 202 announced, more than the ${counts.postsGivenUp} POSTs given up`,
    );
  if (counts.created === 0) failures.push('no command was created at all');
  const webhooks = input.webhooks;
  if (webhooks) {
    const webhookMustBeZero: [Exclude<keyof WebhookCheck, 'samples'>, string][] = [
      ['lost', 'command status changes never reached the webhook receiver'],
      ['doubled', 'command status changes reached the webhook receiver under two webhook-ids'],
      ['outOfOrder', "webhooks arrived before the command's earlier status"],
      ['badSignatures', 'webhooks did not verify with the subscription secret'],
    ];
    for (const [key, meaning] of webhookMustBeZero) {
      if (webhooks[key] > 0) failures.push(`${webhooks[key]} ${meaning}`);
    }
  }

  return {
    passed: failures.length === 0,
    failures,
    parameters: input.parameters,
    durationMs: input.finishedAt - input.startedAt,
    counts,
    perStatus,
    perResultError: countBy(
      terminalStates.flatMap((state) => (state.resultError === undefined ? [] : [state.resultError])),
    ),
    recovery: recoveryTimes(input.faults, input.created, input.finalStates, input.chargePoints),
    ...(webhooks ? { webhooks } : {}),
    samples: {
      lost: lost.slice(0, SAMPLE_SIZE).map((command) => ({
        commandUuid: command.commandUuid,
        nonce: command.nonce,
        type: command.type,
        lastStatus: input.finalStates.get(command.commandUuid)?.status,
      })),
      deliveredTwice: duplicates.slice(0, SAMPLE_SIZE).map(([nonce, calls]) => ({
        nonce,
        commandUuid: byNonce.get(nonce)?.commandUuid,
        calls: calls.map(({ controllerUuid, identity, action, messageId, at }) => ({
          controllerUuid,
          identity,
          action,
          messageId,
          at,
        })),
      })),
      statusProblems: input.statusProblems.slice(0, SAMPLE_SIZE),
      wrongOutcome: wrongOutcome.slice(0, SAMPLE_SIZE),
      answeredButNotReceived: answeredButNotReceived.slice(0, SAMPLE_SIZE),
      offlineButDelivered: offlineButDelivered.slice(0, SAMPLE_SIZE),
      postsNotCreated: input.postsNotCreated.slice(0, SAMPLE_SIZE),
      unannouncedCommands: input.unannouncedCommands.slice(0, SAMPLE_SIZE),
      unexpectedExits: input.unexpectedExits.slice(0, SAMPLE_SIZE),
    },
  };
}

function seconds(ms: number | null): string {
  return ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`;
}

/** The report as the lines the run prints. */
export function formatFaultReport(report: FaultReport): string[] {
  const { counts } = report;
  const lines = [
    `fault test ${report.passed ? 'PASSED' : 'FAILED'} in ${seconds(report.durationMs)}`,
    `  created ${counts.created} (of ${counts.posted} posted)   terminal ${counts.terminal}   lost ${counts.lost}   delivered-twice ${counts.deliveredTwice}`,
    `  per status: ${Object.entries(report.perStatus)
      .map(([status, count]) => `${status} ${count}`)
      .join(', ')}`,
  ];
  const errors = Object.entries(report.perResultError);
  if (errors.length > 0)
    lines.push(`  result.error: ${errors.map(([error, count]) => `${error} ${count}`).join(', ')}`);
  lines.push(
    `  status problems ${counts.statusProblems}, wrong outcome ${counts.wrongOutcome}, answered but not received ${counts.answeredButNotReceived}, ` +
      `wrong charge point ${counts.receivedByWrongChargePoint}, offline but delivered ${counts.offlineButDelivered}`,
    `  POSTs given up ${counts.postsGivenUp}, refused ${counts.postsRefused}, received without 202 ${counts.receivedWithoutCreation}, ` +
      `unannounced commands ${counts.unannouncedCommands}, unexpected process exits ${counts.unexpectedExits}`,
  );
  const { webhooks } = report;
  if (webhooks)
    lines.push(
      `  webhooks: ${webhooks.delivered} of ${webhooks.expected} status changes delivered, lost ${webhooks.lost}, ` +
        `repeated with the same webhook-id ${webhooks.repeatedSameId}, doubled ${webhooks.doubled}, ` +
        `out of order ${webhooks.outOfOrder}, bad signatures ${webhooks.badSignatures}`,
    );
  if (report.recovery.length > 0) {
    lines.push(
      '  recovery after each fault (after the kill: ready again / every charge point completing new commands; ' +
        'the latter after ready again):',
    );
    for (const recovery of report.recovery) {
      lines.push(
        `    ${recovery.fault.padEnd(24)} ${seconds(recovery.readyAfterMs).padStart(8)}   ${seconds(recovery.recoveredAfterMs).padStart(8)}   ${seconds(recovery.recoveredAfterReadyMs).padStart(8)}`,
      );
    }
  }
  for (const failure of report.failures) lines.push(`  FAILURE: ${failure}`);
  return lines;
}
