import { parseBenchOptions } from './bench-options.js';

describe('parseBenchOptions: telemetry', () => {
  it("defaults to issue 24's flood, at 1× and 5×", () => {
    const options = parseBenchOptions([], {});
    expect(options.phases).toContain('telemetry');
    expect(options).toMatchObject({
      telemetryChargePoints: 20_000,
      telemetryChargingShare: 0.1,
      telemetryHeartbeatSeconds: 60,
      telemetryMeterSeconds: 10,
      telemetryMeasurands: 4,
      telemetryStatusSeconds: 600,
      telemetryRateMultipliers: [1, 5],
      telemetrySeconds: 60,
    });
  });

  it("reads issue 21's scenario from the command line or the environment", () => {
    const options = parseBenchOptions(
      ['--phases', 'telemetry', '--telemetry-charging-share', '1', '--telemetry-meter-seconds', '60'],
      { BENCH_TELEMETRY_RATE_MULTIPLIERS: '1' },
    );
    expect(options).toMatchObject({
      phases: ['telemetry'],
      telemetryChargingShare: 1,
      telemetryMeterSeconds: 60,
      telemetryRateMultipliers: [1],
    });
  });

  it.each([
    [['--telemetry-charging-share', '1.5'], /at most 1/],
    [['--telemetry-measurands', '9'], /1 to 8/],
    [['--telemetry-measurands', '2.5'], /1 to 8/],
    [['--telemetry-rate-multipliers', '1,x'], /positive numbers/],
    [['--telemetry-seconds', '0'], /positive number/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBenchOptions(argv, {})).toThrow(message);
  });
});
