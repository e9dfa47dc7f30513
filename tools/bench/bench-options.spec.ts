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

describe('parseBenchOptions: reconnect storm', () => {
  it("defaults to issue 24's storm: 19,900 charge points on one gateway, last of all phases", () => {
    const options = parseBenchOptions([], {});
    expect(options.phases.at(-1)).toBe('reconnect-storm');
    expect(options).toMatchObject({
      stormChargePoints: 19_900,
      stormConnectors: 2,
      stormRetrySeconds: 1,
      stormCommandChargePoints: 20,
      stormCommandsEach: 6,
      stormTimeoutSeconds: 180,
    });
  });

  it('takes a smaller fleet from the command line or the environment', () => {
    const options = parseBenchOptions(
      ['--phases', 'reconnect-storm', '--storm-charge-points', '2000', '--storm-connectors', '1'],
      { BENCH_STORM_COMMANDS_EACH: '4', BENCH_STORM_RETRY_SECONDS: '0.5' },
    );
    expect(options).toMatchObject({
      phases: ['reconnect-storm'],
      stormChargePoints: 2000,
      stormConnectors: 1,
      stormCommandsEach: 4,
      stormRetrySeconds: 0.5,
    });
  });

  it.each([
    [['--storm-charge-points', '0'], /positive number/],
    [['--storm-charge-points', '100.5'], /whole number/],
    [['--storm-connectors', '11'], /1 to 10/],
    [['--storm-commands-each', 'x'], /positive number/],
    [['--storm-timeout-seconds=-1'], /positive number/],
    [['--phases', 'storm'], /unknown phases/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseBenchOptions(argv, {})).toThrow(message);
  });
});

describe('parseBenchOptions: webhooks', () => {
  it("defaults to issue 22's load: about 1,000 status changes/s, the timing-out receiver beside the healthy one", () => {
    expect(parseBenchOptions([], {})).toMatchObject({
      webhookCommandRate: 334,
      webhookSeconds: 20,
      webhookWarmUpSeconds: 5,
      webhookTimingOutReceiver: true,
    });
  });

  it('runs without the receiver that times out when told, and refuses what is not true or false', () => {
    expect(parseBenchOptions(['--webhook-timing-out-receiver', 'false'], {}).webhookTimingOutReceiver).toBe(
      false,
    );
    expect(
      parseBenchOptions([], { BENCH_WEBHOOK_TIMING_OUT_RECEIVER: 'false' }).webhookTimingOutReceiver,
    ).toBe(false);
    expect(() => parseBenchOptions(['--webhook-timing-out-receiver', 'no'], {})).toThrow(/true or false/);
  });

  it('runs one command-service unless told more, and only for the platform it starts', () => {
    expect(parseBenchOptions([], {}).commandServiceReplicas).toBe(1);
    expect(parseBenchOptions(['--command-service-replicas', '2'], {}).commandServiceReplicas).toBe(2);
    expect(() => parseBenchOptions(['--command-service-replicas', '0'], {})).toThrow(/positive number/);
    const running = ['--api-url', 'http://a', '--ocpp-url', 'ws://b', '--database-url', 'postgres://c'];
    expect(() =>
      parseBenchOptions([...running, '--nats-url', 'nats://d', '--command-service-replicas', '2'], {}),
    ).toThrow(/the platform the bench starts/);
  });
});
