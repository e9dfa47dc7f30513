import { gaugeValue, loopDelayOf } from './service-loop-delay.js';

const EXPOSITION = `# HELP nodejs_eventloop_lag_p50_seconds The 50th percentile of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_p50_seconds gauge
nodejs_eventloop_lag_p50_seconds 0.010125
nodejs_eventloop_lag_p90_seconds 0.011
nodejs_eventloop_lag_p99_seconds{service="ocpp-gateway"} 0.0345
nodejs_eventloop_lag_max_seconds 0.25
nodejs_eventloop_lag_max_seconds_total 9
`;

describe('service event-loop delay', () => {
  it('reads the gauges in milliseconds, labelled or not, and no longer names that merely begin the same', () => {
    expect(loopDelayOf(EXPOSITION)).toEqual({ p50: 10.13, p99: 34.5, max: 250 });
    expect(gaugeValue(EXPOSITION, 'nodejs_eventloop_lag_max_seconds')).toBe(0.25);
  });

  it('gives null for a figure the exposition lacks', () => {
    expect(loopDelayOf('nodejs_eventloop_lag_p50_seconds 0.01\n')).toEqual({ p50: 10, p99: null, max: null });
  });
});
