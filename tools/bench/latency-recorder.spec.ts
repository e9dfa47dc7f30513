import { LatencyRecorder } from './latency-recorder.js';

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
