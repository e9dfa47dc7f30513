import { escapeXml, lineChartSvg, type PlotSeries, ticks } from './latency-plot.js';
import { type SummarizedPhase, summaryRows } from './summary-table.js';

/** What the report reads of a results file (`bench-results/bench-<time>.json`); everything but `reports` may be absent. */
export interface ReportedResults {
  at?: string;
  machine?: {
    cpus?: number;
    cpuModel?: string;
    memoryGiB?: number;
    node?: string;
    startedPlatform?: boolean;
  };
  options?: unknown;
  reports: ReportedPhase[];
}

export interface ReportedPhase extends SummarizedPhase {
  cpuMsPerCommand?: Record<string, number>;
}

/** One reconnect-storm reading: seconds since the reconnect order, the controllers shown online (and accepted). */
export interface OnlinePoint {
  seconds: number;
  online: number;
  accepted?: number;
}

/** The latency target of the commands phase (docs/performance.md). */
const COMMAND_P99_TARGET_MS = 50;
/** Issue 22's target for webhook deliveries: p99 event → receiver. */
const WEBHOOK_P99_TARGET_MS = 200;
/** Issue 24's telemetry target: everything kept is stored within 2 s of its receipt. */
const TELEMETRY_LAG_TARGET_MS = 2000;
/** Issue 24's storm target: every charge point online within 30 s of the reconnect. */
const STORM_TARGET_SECONDS = 30;

/** The fields of a reconnect-storm result that may hold its readings over time, the first found is drawn. */
export const STORM_TIMELINE_FIELDS = ['timeline', 'onlineOverTime'] as const;

const COLORS = { p99: '#c0392b', p95: '#e67e22', p50: '#2471a3', other: '#27ae60', reference: '#888888' };

/** A number that can be drawn: finite, else null (a figure not recorded, or one a malformed file spoils). */
const finite = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(record) : []);

/** A series from items, leaving out those whose x is not a number; a y that is not one stays a gap. */
function series(
  label: string,
  color: string,
  items: readonly Record<string, unknown>[],
  x: (item: Record<string, unknown>) => unknown,
  y: (item: Record<string, unknown>) => unknown,
  extra: Partial<PlotSeries> = {},
): PlotSeries {
  const points = items
    .map((item) => ({ x: finite(x(item)), y: finite(y(item)) }))
    .filter((point): point is { x: number; y: number | null } => point.x !== null);
  return { label, color, points, ...extra };
}

const hasValues = (all: readonly PlotSeries[]) =>
  all.some((line) => line.points.some((point) => point.y !== null));

function figure(svg: string, caption: string): string {
  return `<figure>\n${svg}<figcaption>${escapeXml(caption)}</figcaption>\n</figure>`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = (row: readonly string[], tag: 'th' | 'td') =>
    `<tr>${row.map((cell) => `<${tag}>${escapeXml(cell)}</${tag}>`).join('')}</tr>`;
  return `<table>\n<thead>${cells(header, 'th')}</thead>\n<tbody>\n${rows.map((row) => cells(row, 'td')).join('\n')}\n</tbody>\n</table>`;
}

/** Horizontal bars, one a row, with their values written beside them: CPU per process and the like. */
export function horizontalBarsSvg(chart: {
  title: string;
  /** Written after each value. */
  unit: string;
  axisLabel: string;
  bars: readonly { label: string; value: number; note?: string; color?: string }[];
}): string {
  const width = 820;
  const margin = { top: 44, right: 220, bottom: 48, left: 260 };
  const rowHeight = 22;
  const bars = chart.bars.filter((bar) => Number.isFinite(bar.value));
  const height = margin.top + bars.length * rowHeight + margin.bottom;
  const axis = ticks(Math.max(1, ...bars.map((bar) => bar.value)));
  const plotWidth = width - margin.left - margin.right;
  const xOf = (value: number) => margin.left + (Math.max(0, value) / axis[axis.length - 1]) * plotWidth;
  const bottom = margin.top + bars.length * rowHeight;
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(chart.title)}</text>`,
  ];
  for (const tick of axis) {
    const x = xOf(tick).toFixed(1);
    lines.push(
      `<line x1="${x}" y1="${margin.top}" x2="${x}" y2="${bottom}" stroke="#dddddd"/>`,
      `<text x="${x}" y="${bottom + 16}" text-anchor="middle">${tick}</text>`,
    );
  }
  bars.forEach((bar, index) => {
    const y = margin.top + index * rowHeight;
    const end = xOf(bar.value);
    const text = `${bar.value} ${chart.unit}${bar.note ? `, ${bar.note}` : ''}`;
    lines.push(
      `<text x="${margin.left - 8}" y="${(y + rowHeight / 2).toFixed(1)}" text-anchor="end" dominant-baseline="middle">${escapeXml(bar.label)}</text>`,
      `<rect x="${margin.left}" y="${y + 4}" width="${(end - margin.left).toFixed(1)}" height="${rowHeight - 8}" fill="${bar.color ?? COLORS.p50}"><title>${escapeXml(`${bar.label}: ${text}`)}</title></rect>`,
      `<text x="${(end + 6).toFixed(1)}" y="${(y + rowHeight / 2).toFixed(1)}" dominant-baseline="middle">${escapeXml(text)}</text>`,
    );
  });
  lines.push(
    `<line x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${bottom}" stroke="#333333"/>`,
    `<text x="${margin.left + plotWidth / 2}" y="${height - 10}" text-anchor="middle">${escapeXml(chart.axisLabel)}</text>`,
    '</svg>',
  );
  return `${lines.join('\n')}\n`;
}

/**
 * CPU of every process over a phase (percent of one core); the machine as a whole in grey. `usage` is a phase's or a
 * step's `Record<string, UsageSummary>` as the results file has it, so it is read as unknown.
 */
export function cpuBarsSvg(
  title: string,
  usage: unknown,
  perUnit: { figures?: Record<string, unknown>; unit: string } = { unit: '' },
): string | undefined {
  const bars = Object.entries(record(usage)).flatMap(([name, figures]) => {
    const cpu = finite(record(figures).cpuPercent);
    if (cpu === null) return [];
    const per = finite(perUnit.figures?.[name]);
    return [
      {
        label: name,
        value: cpu,
        ...(per === null ? {} : { note: `${per} ms per ${perUnit.unit}` }),
        color: name.startsWith('machine') ? COLORS.reference : COLORS.p50,
      },
    ];
  });
  if (bars.length === 0) return undefined;
  return horizontalBarsSvg({ title, unit: '%', axisLabel: 'CPU, percent of one core', bars });
}

/** Commands: latency percentiles and throughput over the offered rate of each step. */
function commandsPlots(report: ReportedPhase): string[] {
  const steps = list(record(report.result).steps);
  const rate = (step: Record<string, unknown>) => step.targetPerSecond;
  const at = (key: string, percentile: string) => (step: Record<string, unknown>) =>
    record(step[key])[percentile];
  const latency = [
    series('POST → received p99', COLORS.p99, steps, rate, at('postToReceivedMs', 'p99')),
    series('POST → received p95', COLORS.p95, steps, rate, at('postToReceivedMs', 'p95')),
    series('POST → received p50', COLORS.p50, steps, rate, at('postToReceivedMs', 'p50')),
    series('POST → terminal p99', COLORS.other, steps, rate, at('postToTerminalMs', 'p99')),
    series('POST p99', COLORS.reference, steps, rate, at('postMs', 'p99'), { dashed: true }),
  ];
  const throughput = [
    series('offered', COLORS.reference, steps, rate, rate, { dashed: true }),
    series('created/s', COLORS.p50, steps, rate, (step) => step.createdPerSecond),
    series('terminal/s end to end', COLORS.p99, steps, rate, (step) => step.endToEndPerSecond),
  ];
  const figures: string[] = [];
  if (hasValues(latency)) {
    figures.push(
      figure(
        lineChartSvg({
          title: 'Command latency over offered load',
          xLabel: 'commands offered per second',
          yLabel: 'latency (ms)',
          series: latency,
          threshold: {
            y: COMMAND_P99_TARGET_MS,
            label: `target: p99 POST → received < ${COMMAND_P99_TARGET_MS} ms`,
          },
        }),
        'Latency percentiles of each step over the rate it offered.',
      ),
    );
  }
  if (hasValues(throughput.slice(1))) {
    figures.push(
      figure(
        lineChartSvg({
          title: 'Commands per second over offered load',
          xLabel: 'commands offered per second',
          yLabel: 'commands per second',
          series: throughput,
        }),
        'What each step achieved against what it offered (dashed).',
      ),
    );
  }
  return figures;
}

/** Telemetry: acknowledged against offered messages per second, the lags, and CPU per message of each step. */
function telemetryPlots(report: ReportedPhase): string[] {
  const steps = list(record(report.result).steps);
  const offered = (step: Record<string, unknown>) => record(step.offeredPerSecond).messages;
  const at = (key: string, percentile: string) => (step: Record<string, unknown>) =>
    record(step[key])[percentile];
  const rates = [
    series('offered', COLORS.reference, steps, offered, offered, { dashed: true }),
    series('acknowledged/s', COLORS.p99, steps, offered, (step) => step.acknowledgedPerSecond),
  ];
  const lags = [
    series('receipt → stored p99', COLORS.p99, steps, offered, at('receiptToStoredMs', 'p99')),
    series('receipt → stored p50', COLORS.p50, steps, offered, at('receiptToStoredMs', 'p50')),
    series('sent → stored p99', COLORS.p95, steps, offered, at('sentToStoredMs', 'p99')),
    series('round trip p99', COLORS.other, steps, offered, at('roundTripMs', 'p99')),
  ];
  const figures: string[] = [];
  if (hasValues(rates.slice(1))) {
    figures.push(
      figure(
        lineChartSvg({
          title: 'Telemetry: messages acknowledged over offered',
          xLabel: 'messages offered per second',
          yLabel: 'messages per second',
          series: rates,
        }),
        'Messages the gateway acknowledged per second of each step against what the fleet offered (dashed).',
      ),
    );
  }
  if (hasValues(lags)) {
    figures.push(
      figure(
        lineChartSvg({
          title: 'Telemetry: lags over offered load',
          xLabel: 'messages offered per second',
          yLabel: 'milliseconds',
          series: lags,
          threshold: { y: TELEMETRY_LAG_TARGET_MS, label: 'target: stored within 2 s of receipt' },
        }),
        'Receipt at the gateway → stored, the charge point’s send → stored, and the send → answer round trip.',
      ),
    );
  }
  for (const step of steps) {
    const svg = cpuBarsSvg(`Telemetry ×${String(step.multiplier)}: CPU per process`, step.usage, {
      figures: record(step.cpuMsPerMessage),
      unit: 'message',
    });
    if (svg) figures.push(figure(svg, `CPU of each process over the step ×${String(step.multiplier)}.`));
  }
  return figures;
}

/** The readings of a reconnect-storm result, from the first of STORM_TIMELINE_FIELDS that holds any. */
export function stormTimeline(result: unknown): OnlinePoint[] | undefined {
  for (const field of STORM_TIMELINE_FIELDS) {
    const points = list(record(result)[field]).flatMap((item) => {
      const milliseconds = finite(item.atMs) ?? finite(item.ms);
      const seconds =
        finite(item.seconds) ??
        finite(item.atSeconds) ??
        (milliseconds === null ? null : milliseconds / 1000);
      const online = finite(item.online);
      const accepted = finite(item.accepted);
      if (seconds === null || online === null) return [];
      return [{ seconds, online, ...(accepted === null ? {} : { accepted }) }];
    });
    if (points.length > 0) return points;
  }
  return undefined;
}

/** The storm's online count over time (and the accepted count, where read), up to the fleet's size. */
export function stormOnlineSvg(points: readonly OnlinePoint[], total?: number): string {
  const items: Record<string, unknown>[] = points.map((point) => ({ ...point }));
  const lines = [
    series(
      'online',
      COLORS.p99,
      items,
      (item) => item.seconds,
      (item) => item.online,
      { markers: false },
    ),
  ];
  if (points.some((point) => point.accepted !== undefined)) {
    lines.push(
      series(
        'accepted (booted, statuses answered)',
        COLORS.p50,
        items,
        (item) => item.seconds,
        (item) => item.accepted,
        {
          markers: false,
          dashed: true,
        },
      ),
    );
  }
  const fleet = finite(total);
  return lineChartSvg({
    title: 'Reconnect storm: charge points online',
    xLabel: 'seconds since the reconnect',
    yLabel: 'charge points',
    series: lines,
    ...(fleet === null ? {} : { threshold: { y: fleet, label: `all ${fleet} charge points` } }),
    deadline: { x: STORM_TARGET_SECONDS, label: `target: all online within ${STORM_TARGET_SECONDS} s` },
  });
}

function stormPlots(report: ReportedPhase): string[] {
  const points = stormTimeline(report.result);
  if (!points) return [];
  const result = record(report.result);
  const total = finite(result.attempted) ?? finite(result.chargePoints) ?? undefined;
  return [
    figure(stormOnlineSvg(points, total), 'Charge points shown online after the gateway restart, over time.'),
  ];
}

const ms = (value: unknown) => (finite(value) === null ? '–' : `${finite(value)} ms`);
const percentiles = (summary: unknown) => {
  const figures = record(summary);
  return [ms(figures.p50), ms(figures.p95), ms(figures.p99), ms(figures.max)];
};
const LATENCY_HEADER = ['offered', 'achieved', 'p50', 'p95', 'p99', 'max', 'not answered'];

function authorizeTable(report: ReportedPhase): string[] {
  const r = record(report.result);
  return [
    table(LATENCY_HEADER, [
      [
        `${String(r.targetPerSecond)} Authorize/s`,
        `${String(r.answeredPerSecond)}/s`,
        ...percentiles(r.roundTripMs),
        `${String(r.failed)} failed, ${String(r.skipped)} skipped`,
      ],
    ]),
    table(
      ['process', 'event-loop delay p50', 'p99', 'max'],
      [
        ...Object.entries(record(r.serviceLoopDelayMs)).map(([name, delay]) => {
          const figures = record(delay);
          return [name, ms(figures.p50), ms(figures.p99), ms(figures.max)];
        }),
        ...(Array.isArray(r.loadProcessLoopDelayMs) ? r.loadProcessLoopDelayMs : []).map((delay, index) => {
          const figures = record(delay);
          return [`load process ${index + 1}`, ms(figures.p50), ms(figures.p99), ms(figures.max)];
        }),
      ],
    ),
  ];
}

function webhooksTable(report: ReportedPhase): string[] {
  const r = record(report.result);
  const rows = [
    [
      `${String(r.statusEventsPerSecond)} status changes/s`,
      `${String(r.deliveriesPerSecond)} deliveries/s`,
      ...percentiles(r.eventToReceiverMs),
      `${String(r.lost)} lost, ${String(r.repeated)} repeated`,
    ],
  ];
  if (r.eventToReceiverMsAfterWarmUp) {
    rows.push([
      `after the first ${String(r.warmUpSeconds)} s`,
      '',
      ...percentiles(r.eventToReceiverMsAfterWarmUp),
      '',
    ]);
  }
  const seconds = list(r.eventToReceiverMsBySecond).map((summary, second) => ({ second, ...summary }));
  const natsSeconds = list(r.eventToNatsMsBySecond).map((summary, second) => ({ second, ...summary }));
  const overTime = [
    series(
      'event → receiver p99',
      COLORS.p99,
      seconds,
      (item) => item.second,
      (item) => item.p99,
    ),
    series(
      'event → receiver p50',
      COLORS.p50,
      seconds,
      (item) => item.second,
      (item) => item.p50,
    ),
    series(
      'event → on NATS p99',
      COLORS.reference,
      natsSeconds,
      (item) => item.second,
      (item) => item.p99,
      {
        dashed: true,
      },
    ),
  ];
  return [
    table(LATENCY_HEADER, rows),
    ...(hasValues(overTime)
      ? [
          figure(
            lineChartSvg({
              title: 'Webhook latency over the run',
              xLabel: 'second of the run (by when the event happened)',
              yLabel: 'latency (ms)',
              series: overTime,
              threshold: { y: WEBHOOK_P99_TARGET_MS, label: `target: p99 < ${WEBHOOK_P99_TARGET_MS} ms` },
            }),
            "Each second's events: until the healthy receiver had them, and until they were on NATS (dashed).",
          ),
        ]
      : []),
  ];
}

/** Each phase's own plots and tables (after them, every phase gets its CPU per process). */
const PHASE_PLOTS: Record<string, (report: ReportedPhase) => string[]> = {
  commands: commandsPlots,
  telemetry: telemetryPlots,
  'reconnect-storm': stormPlots,
  authorize: authorizeTable,
  webhooks: webhooksTable,
};

/** A part of the report that could not be drawn from its data says so, instead of spoiling the rest. */
function guarded(what: string, draw: () => string[]): string[] {
  try {
    return draw();
  } catch (error) {
    return [
      `<p class="error">${escapeXml(`${what}: not drawn (${error instanceof Error ? error.message : String(error)})`)}</p>`,
    ];
  }
}

function phaseSection(report: ReportedPhase, index: number): string {
  const phase = String(report.phase);
  const parts = guarded(phase, () => {
    const own = PHASE_PLOTS[phase]?.(report) ?? [];
    const cpu = cpuBarsSvg(`${phase}: CPU per process`, report.usage, {
      figures: report.cpuMsPerCommand,
      unit: 'command',
    });
    return cpu
      ? [...own, figure(cpu, 'Average CPU of each process over the phase, percent of one core.')]
      : own;
  });
  return `<section id="phase-${index}">\n<h2>${escapeXml(phase)}</h2>\n${parts.join('\n')}\n</section>`;
}

const STYLE = `body { font-family: sans-serif; margin: 2em auto; max-width: 64em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f2f2f2; }
figure { margin: 1.5em 0; }
figcaption { color: #555; font-size: 0.9em; }
svg { max-width: 100%; height: auto; }
.error { color: #c0392b; }`;

/**
 * A bench run's results as one self-contained HTML page: the plots of each phase as inline SVG (no scripts, styles or
 * images from elsewhere), CPU per process of every phase, the summary table the bench prints, and the options.
 */
export function htmlReport(results: ReportedResults): string {
  const reports = Array.isArray(results.reports) ? results.reports : [];
  const machine = record(results.machine);
  const machineLine = [
    finite(machine.cpus) === null ? undefined : `${String(machine.cpus)} cores`,
    typeof machine.cpuModel === 'string' ? machine.cpuModel : undefined,
    finite(machine.memoryGiB) === null ? undefined : `${String(machine.memoryGiB)} GiB`,
    typeof machine.node === 'string' ? `Node ${machine.node}` : undefined,
    machine.startedPlatform === false ? 'a running platform measured' : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  const title = `Bench results${results.at ? ` ${results.at}` : ''}`;
  const summary = guarded('summary', () => {
    const [header, ...rows] = summaryRows(reports);
    return [table(header, rows)];
  });
  const body = [
    `<h1>${escapeXml(title)}</h1>`,
    machineLine ? `<p>${escapeXml(machineLine)}</p>` : '',
    `<nav><ul>\n${reports.map((report, index) => `<li><a href="#phase-${index}">${escapeXml(String(report.phase))}</a></li>`).join('\n')}\n<li><a href="#summary">summary</a></li>\n</ul></nav>`,
    ...reports.map(phaseSection),
    `<section id="summary">\n<h2>Summary</h2>\n${summary.join('\n')}\n</section>`,
    `<details><summary>Options</summary><pre>${escapeXml(JSON.stringify(results.options ?? {}, null, 2))}</pre></details>`,
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeXml(title)}</title>
<style>
${STYLE}
</style>
</head>
<body>
${body.filter((part) => part !== '').join('\n')}
</body>
</html>
`;
}

/** Where the report of a results file goes: beside it, `<name>.html`. */
export const htmlReportPathFor = (resultsPath: string) => `${resultsPath.replace(/\.json$/, '')}.html`;
