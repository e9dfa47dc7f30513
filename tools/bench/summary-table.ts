import { HELD_P99_MS } from './command-step-verdict.js';
import type { ListDepthResult } from './list-depth.js';
import type { UsageSummary } from './process-usage.js';
import type { StormResult } from './storm-phase.js';
import type { TelemetryResult } from './telemetry-phase.js';
import type { WorkCounters } from './work-counters.js';

/** What the summary reads of a phase's report (a results file's `reports[]`; `phase` may be one it does not know). */
export interface SummarizedPhase {
  phase: string;
  result: unknown;
  usage: Record<string, UsageSummary>;
  work?: { done: WorkCounters; perCommand?: Record<string, number> };
}

/**
 * The run's figures as rows of phase, figure and value, a header row first: the table the bench prints at the end and
 * the HTML report shows. A phase it has no rows of its own for gets its result's numbers and latency summaries.
 */
export function summaryRows(reports: readonly SummarizedPhase[]): string[][] {
  const rows: string[][] = [['phase', 'figure', 'value']];
  for (const { phase, result } of reports) {
    const r = result as Record<string, unknown>;
    if (phase === 'idle') {
      rows.push([
        phase,
        'charge points held (of attempted)',
        `${String(r.connected)} (${String(r.attempted)})`,
      ]);
      rows.push([phase, 'gateway RSS per connection', `${String(r.rssPerConnectionKiB)} KiB`]);
      rows.push([
        phase,
        `gateway heap per connection (${String(r.heapReading)})`,
        `${(r.heapPerConnectionKiB as number | null) ?? 'n/a'} KiB`,
      ]);
      rows.push([phase, 'heartbeats answered', String(r.heartbeatsAnswered)]);
    } else if (phase === 'authorize') {
      const latency = r.roundTripMs as Record<string, number>;
      rows.push([
        `${phase} @${String(r.targetPerSecond)}/s`,
        'answered/s (by status), failed, skipped',
        `${String(r.answeredPerSecond)} ${JSON.stringify(r.byStatus)}, ${String(r.failed)}, ${String(r.skipped)}`,
      ]);
      rows.push([
        `${phase} @${String(r.targetPerSecond)}/s`,
        'round trip p50/p95/p99',
        `${latency.p50}/${latency.p95}/${latency.p99} ms`,
      ]);
      const delays = Object.entries(
        (r.serviceLoopDelayMs as Record<string, { p99: number | null; max: number | null }> | undefined) ??
          {},
      );
      (r.loadProcessLoopDelayMs as { p99: number | null; max: number | null }[] | undefined)?.forEach(
        (delay, index) => delays.push([`load ${index + 1}`, delay]),
      );
      if (delays.length > 0)
        rows.push([
          `${phase} @${String(r.targetPerSecond)}/s`,
          'event-loop delay p99/max',
          delays.map(([name, delay]) => `${name} ${delay.p99}/${delay.max}`).join(', ') + ' ms',
        ]);
    } else if (phase === 'webhooks') {
      const label = `${phase} @${String(r.statusEventsPerSecond)} status changes/s`;
      const latency = r.eventToReceiverMs as Record<string, number>;
      rows.push([label, 'deliveries/s (healthy receiver)', String(r.deliveriesPerSecond)]);
      rows.push([label, 'event → receiver p50/p95/p99', `${latency.p50}/${latency.p95}/${latency.p99} ms`]);
      const steady = (r.eventToReceiverMsAfterWarmUp ?? {}) as Record<string, number>;
      rows.push([
        label,
        `the same after the first ${String(r.warmUpSeconds)} s`,
        `${steady.p50}/${steady.p95}/${steady.p99} ms`,
      ]);
      const nats = (r.eventToNatsMs ?? {}) as Record<string, number>;
      rows.push([label, 'event → on NATS p50/p95/p99', `${nats.p50}/${nats.p95}/${nats.p99} ms`]);
      const natsBySecond = (r.eventToNatsMsBySecond ?? []) as Record<string, number>[];
      rows.push([
        label,
        'event → on NATS p99 per second',
        natsBySecond.map((summary) => summary.p99).join(' ') + ' ms',
      ]);
      const byStatus = (r.eventToReceiverMsByStatus ?? {}) as Record<string, Record<string, number>>;
      rows.push([
        label,
        'event → receiver p50/p99 by status',
        Object.entries(byStatus)
          .map(([status, summary]) => `${status} ${summary.p50}/${summary.p99}`)
          .join(', ') + ' ms',
      ]);
      const bySecond = (r.eventToReceiverMsBySecond ?? []) as Record<string, number>[];
      rows.push([
        label,
        'event → receiver p99 per second',
        bySecond.map((summary) => summary.p99).join(' ') + ' ms',
      ]);
      rows.push([
        label,
        'events, delivered, lost, repeated, other webhook-id',
        `${String(r.statusEvents)}, ${String(r.delivered)}, ${String(r.lost)}, ${String(r.repeated)}, ${String(r.differentIds)}`,
      ]);
      const timedOut = r.timedOutReceiverRequests as number | null;
      rows.push([
        label,
        'requests to the receiver that times out',
        timedOut === null ? 'none: run without it' : String(timedOut),
      ]);
    } else if (phase === 'telemetry') {
      telemetryRows(result as TelemetryResult, rows);
    } else if (phase === 'reconnect-storm') {
      stormRows(result as StormResult, rows);
    } else if (phase === 'location' || phase === 'commands-list') {
      const latency = r.latencyMs as Record<string, number>;
      rows.push([phase, 'requests/s', `${String(r.requestsPerSecond)} (${String(r.non2xx)} non-2xx)`]);
      rows.push([phase, 'latency p50/p97.5/p99', `${latency.p50}/${latency.p97_5}/${latency.p99} ms`]);
      const depth = r.depth as ListDepthResult | undefined;
      if (depth) {
        for (const [label, load] of [
          ['page 1', depth.firstPage],
          [`page ${depth.deepPage} (offset)`, depth.deepNumberedPage],
          [`as deep by cursor`, depth.deepCursorPage],
        ] as const) {
          rows.push([
            phase,
            `${label}: req/s, p50/p99`,
            `${load.requestsPerSecond}, ${load.latencyMs.p50}/${load.latencyMs.p99} ms`,
          ]);
        }
      }
    } else if (phase === 'commands') {
      for (const step of r.steps as Record<string, unknown>[]) {
        const label = `${phase} @${String(step.targetPerSecond)}/s`;
        const ms = (key: string) => {
          const s = step[key] as Record<string, number | null>;
          return `${s.p50}/${s.p95}/${s.p99} ms`;
        };
        rows.push([
          label,
          'created/s, terminal/s end to end',
          `${String(step.createdPerSecond)}, ${String(step.endToEndPerSecond)}`,
        ]);
        rows.push([
          label,
          'terminal (by status, refused POSTs included)',
          `${String(step.terminal)} ${JSON.stringify(step.byStatus)}`,
        ]);
        rows.push([
          label,
          'POSTs refused (by status), skipped',
          `${String(step.refused)} ${JSON.stringify(step.refusedBy)}, ${String(step.skipped)}`,
        ]);
        rows.push([label, 'POST p50/p95/p99', ms('postMs')]);
        rows.push([label, 'POST → received p50/p95/p99', ms('postToReceivedMs')]);
        rows.push([label, 'POST → terminal p50/p95/p99', ms('postToTerminalMs')]);
        rows.push([label, 'load generator event-loop delay p50/p95/p99', ms('loadGeneratorDelayMs')]);
        const perCommand = step.workPerCommand as Record<string, number> | undefined;
        if (perCommand?.writeTransactions !== undefined) rows.push([label, ...workPerCommandRow(perCommand)]);
        rows.push([
          label,
          `held (p99 POST → received < ${HELD_P99_MS} ms, nothing lost)`,
          step.held === true ? 'yes' : `no: ${(step.shortfalls as string[] | undefined)?.join('; ') ?? '?'}`,
        ]);
      }
      const highest = r.highestRateHeld as number | null | undefined;
      rows.push([phase, 'highest rate held', highest == null ? 'none' : `${highest}/s`]);
    } else {
      genericRows(phase, r, rows);
    }
  }
  for (const { phase, work } of reports) {
    if (!work) continue;
    const { natsMessagesIn, natsMessagesOut, writeTransactions, walBytes } = work.done;
    rows.push([
      phase,
      'work: NATS messages in/out, write transactions, WAL',
      `${natsMessagesIn ?? '–'}/${natsMessagesOut ?? '–'}, ${writeTransactions}, ${(walBytes / 2 ** 20).toFixed(1)} MiB`,
    ]);
    const per = work.perCommand;
    if (per?.writeTransactions !== undefined) rows.push([phase, ...workPerCommandRow(per)]);
  }
  for (const { phase, result, usage } of reports) {
    // Telemetry's usage is per step, in its rows above.
    if (phase === 'telemetry') continue;
    const perCommand = phase === 'commands' ? cpuPerCommand(result, usage) : {};
    for (const [service, figures] of Object.entries(usage)) {
      const cpuMs = perCommand[service] === undefined ? '' : `, ${perCommand[service]} ms CPU per command`;
      rows.push([
        phase,
        `${service} CPU / max RSS`,
        `${figures.cpuPercent}% / ${figures.maxRssMiB === null ? '–' : `${figures.maxRssMiB} MiB`}${cpuMs}`,
      ]);
    }
  }
  return rows;
}

function workPerCommandRow(per: Record<string, number>): [string, string] {
  return [
    'work per command: NATS messages in/out, write transactions, WAL',
    `${per.natsMessagesIn ?? '–'}/${per.natsMessagesOut ?? '–'}, ${per.writeTransactions}, ${per.walBytes} B`,
  ];
}

/** Rows as text in aligned columns, one line a row. */
export function formatTable(rows: readonly string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ')).join('\n');
}

const isLatencySummary = (value: unknown): value is Record<'p50' | 'p95' | 'p99', number | null> =>
  typeof value === 'object' && value !== null && 'p50' in value && 'p99' in value;

/** A phase without rows of its own: its result's top-level numbers, strings and latency summaries. */
function genericRows(phase: string, result: Record<string, unknown> | null, rows: string[][]): void {
  for (const [key, value] of Object.entries(result ?? {})) {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
      rows.push([phase, key, String(value)]);
    } else if (isLatencySummary(value)) {
      rows.push([phase, `${key} p50/p95/p99`, `${value.p50}/${value.p95 ?? '–'}/${value.p99} ms`]);
    }
  }
}

function telemetryRows(result: TelemetryResult, rows: string[][]): void {
  rows.push([
    'telemetry',
    'charge points ready (connected, charging, of attempted)',
    `${result.ready} (${result.connected}, ${result.charging}, ${result.attempted})`,
  ]);
  const ms = (summary: { p50: number | null; p95: number | null; p99: number | null }) =>
    `${summary.p50}/${summary.p95}/${summary.p99} ms`;
  for (const step of result.steps) {
    const label = `telemetry ×${step.multiplier}`;
    const answered = step.answered;
    rows.push([
      label,
      'acknowledged/s (offered/s)',
      `${step.acknowledgedPerSecond} (${step.offeredPerSecond.messages})`,
    ]);
    rows.push([
      label,
      'answered: heartbeat, status, meter; errors, unanswered',
      `${answered.heartbeat}, ${answered.status}, ${answered.meter}; ${JSON.stringify(step.errors)}, ${step.unanswered}`,
    ]);
    rows.push([label, 'round trip p50/p95/p99', ms(step.roundTripMs)]);
    rows.push([
      label,
      'samples stored (of acknowledged), stored/s',
      `${step.samples.stored} (${step.samples.acknowledged}), ${step.samples.storedPerSecond}`,
    ]);
    rows.push([
      label,
      'status changes logged (of acknowledged)',
      `${step.statusChanges.logged} (${step.statusChanges.acknowledged})`,
    ]);
    rows.push([
      label,
      'receipt → stored p50/p95/p99',
      'unavailable' in step.receiptToStoredMs
        ? step.receiptToStoredMs.unavailable
        : ms(step.receiptToStoredMs),
    ]);
    rows.push([label, 'sent → stored p50/p95/p99', ms(step.sentToStoredMs)]);
    for (const [service, figures] of Object.entries(step.usage)) {
      const perMessage = step.cpuMsPerMessage[service];
      rows.push([
        label,
        `${service} CPU / max RSS`,
        `${figures.cpuPercent}% / ${figures.maxRssMiB === null ? '–' : `${figures.maxRssMiB} MiB`}` +
          (perMessage === undefined ? '' : `, ${perMessage} ms CPU per message`),
      ]);
    }
  }
}

function stormRows(result: StormResult, rows: string[][]): void {
  const label = 'reconnect-storm';
  const ms = (summary: { p50: number | null; p95: number | null; p99: number | null }) =>
    `${summary.p50}/${summary.p95}/${summary.p99} ms`;
  const secondsOrNot = (value: number | null) => (value === null ? 'not reached' : `${value} s`);
  rows.push([
    label,
    'charge points (connectors each; booted before the kill)',
    `${result.attempted} (${result.connectors}; ${result.initiallyReady})`,
  ]);
  rows.push([label, 'gateway SIGKILL → new instance ready', `${result.gatewayRestartSeconds} s`]);
  rows.push([
    label,
    'after the reconnect order: all accepted, all online, both',
    `${secondsOrNot(result.allAcceptedSeconds)}, ${secondsOrNot(result.allOnlineSeconds)}, ` +
      secondsOrNot(result.allAcceptedAndOnlineSeconds),
  ]);
  rows.push([
    label,
    'accepted, online (database), online (API)',
    `${result.accepted}, ${result.online}, ${result.onlineInApi}`,
  ]);
  rows.push([label, 'BootNotification round trip p50/p95/p99', ms(result.bootRoundTripMs)]);
  rows.push([label, 'order → accepted p50/p95/p99', ms(result.acceptedMs)]);
  rows.push([
    label,
    'refused (by status), connect errors, dropped',
    `${result.refused} ${JSON.stringify(result.refusedBy)}, ${JSON.stringify(result.connectErrors)}, ${result.dropped}`,
  ]);
  const commands = result.commands;
  rows.push([
    label,
    'commands: created, delivered, missing, repeated, out of order',
    `${commands.created}, ${commands.delivered}, ${commands.missing}, ${commands.repeated}, ` +
      `${commands.outOfOrder.length} charge points`,
  ]);
  rows.push([
    label,
    'commands by status (POSTs refused)',
    `${JSON.stringify(commands.byStatus)} (${JSON.stringify(commands.refusedBy)})`,
  ]);
}

/** The commands that ended over a commands phase's steps. */
export function terminalCommands(result: unknown): number {
  const steps = (result as { steps: { terminal: number }[] }).steps;
  return steps.reduce((sum, step) => sum + step.terminal, 0);
}

/** CPU milliseconds per command of each process over the commands phase (all its steps), from its CPU seconds. */
export function cpuPerCommand(result: unknown, usage: Record<string, UsageSummary>): Record<string, number> {
  const commands = terminalCommands(result);
  if (commands === 0) return {};
  return Object.fromEntries(
    Object.entries(usage)
      .filter(([, figures]) => figures.cpuSeconds !== undefined)
      .map(([name, figures]) => [name, Math.round((figures.cpuSeconds! / commands) * 1e5) / 100]),
  );
}
