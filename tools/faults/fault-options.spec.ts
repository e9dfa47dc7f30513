import { DEFAULT_FAULT_OPTIONS, DEFAULT_FAULTS, parseFaultOptions } from './fault-options.js';

describe('parseFaultOptions', () => {
  it('uses the defaults: every fault of the CI run', () => {
    expect(parseFaultOptions([], {})).toEqual(DEFAULT_FAULT_OPTIONS);
    expect(DEFAULT_FAULT_OPTIONS.faults).toEqual(DEFAULT_FAULTS);
  });

  it('reads FAULTS_* variables, and flags (both spellings) over them', () => {
    const options = parseFaultOptions(
      ['--commands=5000', '--charge-points', '40', '--keep', '--faults', 'nats,postgres'],
      {
        FAULTS_COMMANDS: '100',
        FAULTS_RATE: '50',
        FAULTS_REPORT: '/tmp/report.json',
      },
    );
    expect(options).toMatchObject({
      commands: 5000,
      chargePoints: 40,
      rate: 50,
      keep: true,
      faults: ['nats', 'postgres'],
      reportFile: '/tmp/report.json',
    });
  });

  it('names every bad value at once, with the usage', () => {
    expect(() =>
      parseFaultOptions(['--commands=lots', '--faults=nats,router', '--rate=0', '--verbose'], {}),
    ).toThrow(
      /--commands must be an integer of at least 1, not "lots"\nunknown fault router .*\n--rate must be an integer of at least 1, not "0"\nunknown argument --verbose\n\nnpm run test:faults/,
    );
  });
});
