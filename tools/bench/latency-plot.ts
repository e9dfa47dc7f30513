import type { CommandStepResult } from './commands-phase.js';

/** What the plot reads of a command step: the offered rate and the latency summaries. */
export type PlottedStep = Pick<CommandStepResult, 'targetPerSecond' | 'postMs' | 'postToReceivedMs'>;

export interface PlotSeries {
  label: string;
  color: string;
  /** Points with a missing value are left out (a step that measured nothing, or a figure not recorded). */
  points: { x: number; y: number | null }[];
  /** A marker (with its value as a tooltip) at every point; off for long time series. Default: on. */
  markers?: boolean;
  /** A dashed line, e.g. for a reference rather than a measurement. */
  dashed?: boolean;
}

/** The latency target the bench is held to (docs/performance.md). */
const P99_TARGET_MS = 50;
const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { top: 48, right: 24, bottom: 56, left: 64 };

/** The latency series of the commands phase: p99 and p50 of POST → received, p99 of the POST alone. */
export function commandLatencySeries(steps: readonly PlottedStep[]): PlotSeries[] {
  const series = (label: string, color: string, pick: (step: PlottedStep) => number | null): PlotSeries => ({
    label,
    color,
    points: steps.map((step) => ({ x: step.targetPerSecond, y: pick(step) })),
  });
  return [
    series('POST → received p99', '#c0392b', (step) => step.postToReceivedMs.p99),
    series('POST p99', '#e67e22', (step) => step.postMs.p99),
    series('POST → received p50', '#2471a3', (step) => step.postToReceivedMs.p50),
  ];
}

/** 1, 2 or 5 times a power of ten, so that about `count` ticks cover 0…max. */
function tickStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw);
  return step ?? 10 * power;
}

export function ticks(max: number): number[] {
  const step = tickStep(max, 5);
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, index) =>
    Number((index * step).toPrecision(12)),
  );
}

/** Text for XML and HTML: content and double-quoted attributes. */
export const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * A line chart as a standalone SVG document, without dependencies: linear axes from 0, a polyline and markers per
 * series, a legend. Used for the bench's latency over offered command rate.
 */
export function lineChartSvg(chart: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly PlotSeries[];
  /** A horizontal dashed line, e.g. a latency target. */
  threshold?: { y: number; label: string };
  /** A vertical dashed line, e.g. a time target. */
  deadline?: { x: number; label: string };
}): string {
  const values = chart.series.flatMap((series) =>
    series.points.filter((point): point is { x: number; y: number } => point.y !== null),
  );
  // The x axis covers every step offered, also those without a figure.
  const xTicks = ticks(
    Math.max(
      1,
      chart.deadline?.x ?? 0,
      ...chart.series.flatMap((series) => series.points.map((point) => point.x)),
    ),
  );
  const yTicks = ticks(Math.max(1, chart.threshold?.y ?? 0, ...values.map((point) => point.y)));
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const xOf = (x: number) => MARGIN.left + (x / xTicks[xTicks.length - 1]) * plotWidth;
  const yOf = (y: number) => MARGIN.top + plotHeight - (y / yTicks[yTicks.length - 1]) * plotHeight;
  const coordinate = (value: number) => value.toFixed(1);

  const lines: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(chart.title)}</text>`,
  ];
  for (const tick of yTicks) {
    const y = coordinate(yOf(tick));
    lines.push(
      `<line x1="${MARGIN.left}" y1="${y}" x2="${WIDTH - MARGIN.right}" y2="${y}" stroke="#dddddd"/>`,
      `<text x="${MARGIN.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle">${tick}</text>`,
    );
  }
  for (const tick of xTicks) {
    const x = coordinate(xOf(tick));
    lines.push(
      `<line x1="${x}" y1="${MARGIN.top + plotHeight}" x2="${x}" y2="${MARGIN.top + plotHeight + 5}" stroke="#333333"/>`,
      `<text x="${x}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle">${tick}</text>`,
    );
  }
  lines.push(
    `<line x1="${MARGIN.left}" y1="${MARGIN.top + plotHeight}" x2="${WIDTH - MARGIN.right}" y2="${MARGIN.top + plotHeight}" stroke="#333333"/>`,
    `<line x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + plotHeight}" stroke="#333333"/>`,
    `<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 14}" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(18 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`,
  );
  if (chart.threshold) {
    const y = coordinate(yOf(chart.threshold.y));
    lines.push(
      `<line x1="${MARGIN.left}" y1="${y}" x2="${WIDTH - MARGIN.right}" y2="${y}" stroke="#555555" stroke-dasharray="6 4"/>`,
      `<text x="${WIDTH - MARGIN.right - 4}" y="${coordinate(yOf(chart.threshold.y) - 6)}" text-anchor="end" fill="#555555">${escapeXml(chart.threshold.label)}</text>`,
    );
  }
  if (chart.deadline) {
    const x = coordinate(xOf(chart.deadline.x));
    lines.push(
      `<line x1="${x}" y1="${MARGIN.top}" x2="${x}" y2="${MARGIN.top + plotHeight}" stroke="#555555" stroke-dasharray="6 4"/>`,
      `<text x="${coordinate(xOf(chart.deadline.x) - 6)}" y="${MARGIN.top + plotHeight - 8}" text-anchor="end" fill="#555555">${escapeXml(chart.deadline.label)}</text>`,
    );
  }
  chart.series.forEach((series, index) => {
    const points = series.points.filter((point): point is { x: number; y: number } => point.y !== null);
    const path = points.map((point) => `${coordinate(xOf(point.x))},${coordinate(yOf(point.y))}`).join(' ');
    if (points.length > 1) {
      const dash = series.dashed ? ' stroke-dasharray="4 3"' : '';
      lines.push(`<polyline points="${path}" fill="none" stroke="${series.color}" stroke-width="2"${dash}/>`);
    }
    for (const point of series.markers === false && points.length > 1 ? [] : points) {
      lines.push(
        `<circle cx="${coordinate(xOf(point.x))}" cy="${coordinate(yOf(point.y))}" r="4" fill="${series.color}"><title>${escapeXml(`${series.label} at ${point.x}: ${point.y}`)}</title></circle>`,
      );
    }
    const legendY = MARGIN.top + 8 + index * 18;
    lines.push(
      `<rect x="${MARGIN.left + 12}" y="${legendY - 5}" width="14" height="4" fill="${series.color}"/>`,
      `<text x="${MARGIN.left + 32}" y="${legendY}" dominant-baseline="middle">${escapeXml(series.label)}</text>`,
    );
  });
  lines.push('</svg>');
  return `${lines.join('\n')}\n`;
}

/** The bench's plot: command latency over the offered command rate. */
export function commandLatencySvg(steps: readonly PlottedStep[], subtitle: string): string {
  return lineChartSvg({
    title: `Command latency over offered load (${subtitle})`,
    xLabel: 'commands offered per second',
    yLabel: 'latency (ms)',
    series: commandLatencySeries(steps),
    threshold: { y: P99_TARGET_MS, label: `target: p99 POST → received < ${P99_TARGET_MS} ms at 500/s` },
  });
}

/** Where the plot of a results file goes: beside it, `<name>-latency.svg`. */
export const plotPathFor = (resultsPath: string) => `${resultsPath.replace(/\.json$/, '')}-latency.svg`;

/** The machine line of a results file, for the plot's title. */
export const machineSubtitle = (machine: { cpus: number; memoryGiB: number }) =>
  `${machine.cpus} cores, ${machine.memoryGiB} GiB`;
