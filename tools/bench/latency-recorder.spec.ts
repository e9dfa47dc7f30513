import { createHistogram } from 'node:perf_hooks';
import { LatencyRecorder, summarizeLoopDelay } from './latency-recorder.js';

describe('LatencyRecorder', () => {
  it('reports nearest-rank percentiles', () => {
    const recorder = new LatencyRecorder();
    for (let value = 100; value >= 1; value -= 1) recorder.record(value);
    expect(recorder.summary()).toEqual({ count: 100, p50: 50, p95: 95, p99: 99, max: 100 });
  });

  it('reports nothing for no samples', () => {
    expect(new LatencyRecorder().summary()).toEqual({ count: 0, p50: null, p95: null, p99: null, max: null });
  });
});

describe('summarizeLoopDelay', () => {
  it('reports the delay past the sampling interval, in milliseconds', () => {
    const histogram = createHistogram();
    // Samples of a 1 ms timer, in nanoseconds: on time 98 times, then 3 ms and 21 ms late.
    for (let sample = 0; sample < 98; sample += 1) histogram.record(1_000_000);
    histogram.record(4_000_000);
    histogram.record(22_000_000);
    const summary = summarizeLoopDelay(histogram, 1);
    expect(summary.count).toBe(100);
    expect(summary.p50).toBeCloseTo(0, 1);
    expect(summary.p99).toBeCloseTo(3, 1);
    expect(summary.max).toBeCloseTo(21, 1);
  });

  it('reports nothing for no samples', () => {
    expect(summarizeLoopDelay(createHistogram(), 1)).toEqual({
      count: 0,
      p50: null,
      p95: null,
      p99: null,
      max: null,
    });
  });
});
