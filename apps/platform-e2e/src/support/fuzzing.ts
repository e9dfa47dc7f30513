import type { Parameters } from 'fast-check';
import type { PlatformUnderTest, ServiceName } from '@cpc/testing';

/**
 * fast-check settings of the fuzz tests: a fixed seed and a small count by default, so CI is repeatable and quick;
 * `FUZZ_RUNS` and `FUZZ_SEED` make a longer or different run on demand (`FUZZ_RUNS=5000 npm test -- fuzz`).
 */
export function fuzzParameters<T>(defaultRuns: number): Parameters<T> {
  const runs = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  const seed = Number(process.env.FUZZ_SEED ?? 20261121);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a positive integer`);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer`);
  return { numRuns: runs, seed, verbose: 0 };
}

/** The fuzz tests run the whole platform: every service must survive what they send. */
export const FUZZED_SERVICES: ServiceName[] = [
  'auth-service',
  'assets-service',
  'command-service',
  'webhook-service',
  'api-gateway',
  'ocpp-gateway',
];

/** How long a fuzz test may take: its count at a generous pace per run, and at least a minute. */
export function fuzzTimeoutMs(defaultRuns: number, perRunMs: number): number {
  const runs = Number(process.env.FUZZ_RUNS ?? defaultRuns);
  return Math.max(60_000, runs * perRunMs * 3);
}

/** Lines that only a crash, an unhandled rejection or an internal error prints (pino levels 50 error, 60 fatal). */
const FAILURE_LINE = /"level":(50|60)\b|unhandled|uncaught|^\s+at \S+ \(|^\w*Error: /i;

/**
 * Every service still runs, answers /health/ready with 200, and printed nothing that a crash, an unhandled rejection
 * or an internal error would print.
 */
export async function expectServicesSurvived(
  platform: PlatformUnderTest,
  services: readonly ServiceName[],
): Promise<void> {
  for (const name of services) {
    const service = platform.service(name);
    const failures = service
      .output()
      .split('\n')
      .filter((line) => FAILURE_LINE.test(line));
    if (failures.length > 0) throw new Error(`${name} printed:\n${failures.slice(0, 20).join('\n')}`);
    if (service.pid() === undefined) throw new Error(`${name} is no longer running`);
    const ready = await fetch(service.readyUrl);
    if (ready.status !== 200) throw new Error(`${name} answers ${ready.status} on ${service.readyUrl}`);
  }
}
