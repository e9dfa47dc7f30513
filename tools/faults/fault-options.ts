export const FAULT_NAMES = [
  'api-gateway',
  'command-service',
  'ocpp-gateway',
  'nats',
  'postgres',
  'gateway-instance-lost',
  'auth-service',
  'assets-service',
  'webhook-service',
] as const;
export type FaultName = (typeof FAULT_NAMES)[number];

/** The run `npm run test:faults` makes without options (CI): every fault in turn, a few minutes. */
export const DEFAULT_FAULTS: readonly FaultName[] = [
  'api-gateway',
  'command-service',
  'ocpp-gateway',
  'nats',
  'postgres',
  'gateway-instance-lost',
  'webhook-service',
];

export interface FaultOptions {
  /** At least this many commands are posted; the stream goes on until the last fault has passed. */
  commands: number;
  chargePoints: number;
  /** POSTs per second. */
  rate: number;
  faults: FaultName[];
  /** valid_for_seconds of every command. */
  validForSeconds: number;
  /** OCPP_CALL_TIMEOUT_MS of the platform. */
  callTimeoutMs: number;
  /** How long a killed process stays down before it is started again. */
  downMs: number;
  /** How long the gateway instance of `gateway-instance-lost` stays away (its charge points move meanwhile). */
  instanceLostMs: number;
  /** Quiet time before the first fault and after each recovery. */
  intervalMs: number;
  /** Longest pause of a charge point before it answers. */
  maxAnswerDelayMs: number;
  /** Where the JSON report goes. */
  reportFile: string;
  /** Keep the work directory (databases, logs) even when the run passes. */
  keep: boolean;
}

interface OptionSpec {
  key: keyof FaultOptions;
  flag: string;
  env: string;
  kind: 'int' | 'faults' | 'string' | 'boolean';
  min?: number;
  description: string;
}

const SPECS: OptionSpec[] = [
  {
    key: 'commands',
    flag: 'commands',
    env: 'FAULTS_COMMANDS',
    kind: 'int',
    min: 1,
    description: 'commands to post (at least)',
  },
  {
    key: 'chargePoints',
    flag: 'charge-points',
    env: 'FAULTS_CHARGE_POINTS',
    kind: 'int',
    min: 1,
    description: 'simulated charge points, half 1.6, half 2.0.1',
  },
  { key: 'rate', flag: 'rate', env: 'FAULTS_RATE', kind: 'int', min: 1, description: 'POSTs per second' },
  {
    key: 'faults',
    flag: 'faults',
    env: 'FAULTS_LIST',
    kind: 'faults',
    description: `comma-separated, in order, from ${FAULT_NAMES.join(', ')}`,
  },
  {
    key: 'validForSeconds',
    flag: 'valid-for',
    env: 'FAULTS_VALID_FOR_SECONDS',
    kind: 'int',
    min: 1,
    description: 'valid_for_seconds of each command',
  },
  {
    key: 'callTimeoutMs',
    flag: 'call-timeout-ms',
    env: 'FAULTS_CALL_TIMEOUT_MS',
    kind: 'int',
    min: 100,
    description: 'OCPP_CALL_TIMEOUT_MS of the platform',
  },
  {
    key: 'downMs',
    flag: 'down-ms',
    env: 'FAULTS_DOWN_MS',
    kind: 'int',
    min: 0,
    description: 'how long a killed process stays down',
  },
  {
    key: 'instanceLostMs',
    flag: 'instance-lost-ms',
    env: 'FAULTS_INSTANCE_LOST_MS',
    kind: 'int',
    min: 0,
    description: 'how long the lost gateway instance stays away',
  },
  {
    key: 'intervalMs',
    flag: 'interval-ms',
    env: 'FAULTS_INTERVAL_MS',
    kind: 'int',
    min: 0,
    description: 'quiet time before the first fault and after each recovery',
  },
  {
    key: 'maxAnswerDelayMs',
    flag: 'answer-delay-ms',
    env: 'FAULTS_ANSWER_DELAY_MS',
    kind: 'int',
    min: 0,
    description: 'longest pause of a charge point before it answers',
  },
  {
    key: 'reportFile',
    flag: 'report',
    env: 'FAULTS_REPORT',
    kind: 'string',
    description: 'where the JSON report is written',
  },
  {
    key: 'keep',
    flag: 'keep',
    env: 'FAULTS_KEEP',
    kind: 'boolean',
    description: 'keep the work directory (logs, data) after a passing run',
  },
];

export const DEFAULT_FAULT_OPTIONS: FaultOptions = {
  commands: 2000,
  chargePoints: 10,
  rate: 25,
  faults: [...DEFAULT_FAULTS],
  validForSeconds: 120,
  callTimeoutMs: 10_000,
  downMs: 2_000,
  instanceLostMs: 15_000,
  intervalMs: 5_000,
  maxAnswerDelayMs: 100,
  reportFile: 'fault-results/faults-report.json',
  keep: false,
};

export function faultUsage(): string {
  return [
    'npm run test:faults -- [--option=value ...]   (or the environment variables)',
    ...SPECS.map(
      (spec) =>
        `  --${spec.flag.padEnd(16)} ${spec.env.padEnd(26)} ${spec.description} (default ${String(DEFAULT_FAULT_OPTIONS[spec.key])})`,
    ),
  ].join('\n');
}

function parseValue(spec: OptionSpec, raw: string, problems: string[]): unknown {
  switch (spec.kind) {
    case 'int': {
      const value = Number(raw);
      if (!/^\d+$/.test(raw) || value < (spec.min ?? 0)) {
        problems.push(`--${spec.flag} must be an integer of at least ${spec.min ?? 0}, not "${raw}"`);
        return undefined;
      }
      return value;
    }
    case 'faults': {
      const names = raw
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
      const unknown = names.filter((name) => !(FAULT_NAMES as readonly string[]).includes(name));
      if (unknown.length > 0)
        problems.push(`unknown fault ${unknown.join(', ')} (known: ${FAULT_NAMES.join(', ')})`);
      return names;
    }
    case 'boolean':
      if (!['true', 'false', '1', '0', ''].includes(raw))
        problems.push(`--${spec.flag} is true or false, not "${raw}"`);
      return raw === 'true' || raw === '1' || raw === '';
    case 'string':
      if (raw === '') problems.push(`--${spec.flag} must not be empty`);
      return raw;
  }
}

/** Options from `--flag=value` / `--flag value` arguments over FAULTS_* variables over the defaults. */
export function parseFaultOptions(argv: readonly string[], env: NodeJS.ProcessEnv): FaultOptions {
  const options: Record<string, unknown> = { ...DEFAULT_FAULT_OPTIONS };
  const problems: string[] = [];
  for (const spec of SPECS) {
    const raw = env[spec.env];
    if (raw !== undefined && raw !== '') options[spec.key] = parseValue(spec, raw, problems);
  }
  for (let index = 0; index < argv.length; index += 1) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[index]);
    const spec = match && SPECS.find((candidate) => candidate.flag === match[1]);
    if (!spec) {
      problems.push(`unknown argument ${argv[index]}`);
      continue;
    }
    let raw = match[2];
    if (raw === undefined && spec.kind !== 'boolean') {
      raw = argv[index + 1] ?? '';
      index += 1;
    }
    options[spec.key] = parseValue(spec, raw ?? '', problems);
  }
  if (problems.length > 0) throw new Error(`${problems.join('\n')}\n\n${faultUsage()}`);
  return options as unknown as FaultOptions;
}
