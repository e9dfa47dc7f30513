import type { Histogram } from 'node:perf_hooks';

/** Latency samples in milliseconds, summarised as the percentiles the report shows. */
export class LatencyRecorder {
  private readonly samples: number[] = [];

  record(milliseconds: number): void {
    this.samples.push(milliseconds);
  }

  get count(): number {
    return this.samples.length;
  }

  summary(): LatencySummary {
    const sorted = [...this.samples].sort((a, b) => a - b);
    const at = (fraction: number) =>
      sorted.length === 0
        ? null
        : round(sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]);
    return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
  }
}

export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/**
 * An event-loop delay histogram (`monitorEventLoopDelay`, nanoseconds) as a summary in milliseconds of the delay past
 * the sampling timer's own interval (`resolutionMs`, which every sample includes).
 */
export function summarizeLoopDelay(histogram: Histogram, resolutionMs: number): LatencySummary {
  const late = (nanoseconds: number) => round(Math.max(0, nanoseconds / 1e6 - resolutionMs));
  const at = (percentile: number) => (histogram.count === 0 ? null : late(histogram.percentile(percentile)));
  return {
    count: histogram.count,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: histogram.count === 0 ? null : late(histogram.max),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;
