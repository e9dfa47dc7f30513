import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { apiCall } from './bench-setup.js';
import { FleetProcesses } from './fleet-processes.js';
import { readProcess } from './process-usage.js';
import type { Progress } from './progress.js';

export interface IdleOptions {
  count: number;
  heartbeatSeconds: number;
  connectsPerSecond: number;
  holdSeconds: number;
}

export interface IdleResult {
  requested: number;
  attempted: number;
  cappedBy?: string;
  connected: number;
  failed: number;
  retries: number;
  lastError?: string;
  connectSeconds: number;
  heartbeatsAnswered: number;
  gatewayRssBeforeMiB: number;
  gatewayRssAfterMiB: number;
  rssPerConnectionKiB: number;
  heapPerConnectionKiB: number | null;
  /** How the gateway's heap was read: right after a full collection, or the lowest /metrics reading (garbage in). */
  heapReading: 'after a full collection' | 'lowest /metrics reading';
}

/** The soft open-file limit of a process: one socket each, so the most charge points it can hold. */
export function openFileLimit(pid: number | 'self'): number {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('Max open files'));
  return Number(line?.split(/\s{2,}/)[1] ?? Infinity);
}

/** How many of `requested` charge points the gateway can hold (its open-file limit, less its own descriptors). */
export function fleetSizeFor(
  gatewayPid: number,
  requested: number,
): { attempted: number; cappedBy?: string } {
  // The gateway needs a descriptor per socket plus its own few dozen (NATS, listeners, logs).
  const limit = openFileLimit(gatewayPid);
  const attempted = Math.min(requested, limit - 100);
  return attempted < requested
    ? { attempted, cappedBy: `the gateway's open-file limit (${limit})` }
    : { attempted };
}

/**
 * The gateway's heap in use (its /metrics), lowest of the readings taken so far, for a running platform whose
 * inspector the bench cannot open. Every reading includes the garbage not collected yet, which comes and goes with the
 * collector's rhythm (old-generation garbage waits for the next major collection), so it overstates what is retained
 * by an amount that varies from run to run; the bench's own platform is read after a full collection (HeapAfterGc).
 */
class HeapLow {
  private low: number | undefined;

  constructor(private readonly target: BenchTarget) {}

  async sample(): Promise<void> {
    const used = await heapUsedBytes(this.target);
    if (used !== undefined) this.low = Math.min(used, this.low ?? Infinity);
  }

  get bytes(): number | undefined {
    return this.low;
  }
}

async function heapUsedBytes(target: BenchTarget): Promise<number | undefined> {
  if (!target.ocppGatewayMetricsUrl) return undefined;
  const text = await (await fetch(target.ocppGatewayMetricsUrl)).text();
  const value = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1];
  return value === undefined ? undefined : Number(value);
}

/** Registers `count` controllers of security profile 0 straight in the assets schema: seconds instead of minutes. */
async function seedControllers(target: BenchTarget, tenant: BenchTenant, count: number): Promise<string[]> {
  const location = await apiCall<{ location: { uuid: string } }>(
    target,
    tenant,
    'POST',
    '/assets/locations',
    {
      name: 'Bench idle fleet',
    },
  );
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
       SELECT gen_random_uuid(), $1, $2, 'Idle ' || i, 'IDLE-' || i, 0 FROM generate_series(1, $3) AS i`,
      [tenant.uuid, location.location.uuid, count],
    );
  } finally {
    await client.end();
  }
  return Array.from({ length: count }, (_, index) => `IDLE-${index + 1}`);
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;

export async function runIdlePhase(
  target: BenchTarget,
  tenant: BenchTenant,
  gatewayPid: number,
  options: IdleOptions,
  progress: Progress,
): Promise<IdleResult> {
  // The gateway needs a descriptor per socket plus its own few dozen (NATS, listeners, logs).
  const limit = openFileLimit(gatewayPid) - 100;
  const attempted = Math.min(options.count, limit);
  const identities = await seedControllers(target, tenant, attempted);
  // Opened before the first RSS reading, so the inspector's own memory is not counted as the connections'.
  const inspected = await target.openGatewayHeapAfterGc?.();
  const rssBefore = readProcess(gatewayPid)?.rssBytes ?? 0;
  const heapBefore = new HeapLow(target);
  for (let reading = 0; reading < 5; reading += 1) {
    await heapBefore.sample();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const heapBeforeAfterGc = await inspected?.usedBytes();

  const fleet = FleetProcesses.start(
    {
      ocppUrl: target.ocppUrl,
      tenant: tenant.slug,
      heartbeatSeconds: options.heartbeatSeconds,
      connectsPerSecond: options.connectsPerSecond,
    },
    identities,
  );
  const totals = () => fleet.totals();

  const started = performance.now();
  let lastChange = started;
  let last = -1;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = totals();
    const rss = mib(readProcess(gatewayPid)?.rssBytes ?? 0);
    progress.update(
      `idle: ${now.connected}/${attempted} connected, ${now.retries} retried, ${now.failed} gave up, ` +
        `gateway RSS ${rss} MiB`,
    );
    if (now.connected + now.failed !== last) {
      last = now.connected + now.failed;
      lastChange = performance.now();
    }
    if (last >= attempted || performance.now() - lastChange > 60_000) break;
  }
  const connectSeconds = Math.round((performance.now() - started) / 100) / 10;
  const holdUntil = performance.now() + options.holdSeconds * 1000;
  const heapAfter = new HeapLow(target);
  while (performance.now() < holdUntil) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await heapAfter.sample();
    const now = totals();
    progress.update(
      `idle: holding ${now.connected} charge points, ${now.heartbeatsAnswered} heartbeats answered, ` +
        `${Math.ceil((holdUntil - performance.now()) / 1000)} s left`,
    );
  }
  const final = totals();
  const rssAfter = readProcess(gatewayPid)?.rssBytes ?? 0;
  const heapAfterAfterGc = await inspected?.usedBytes();
  inspected?.close();
  fleet.stop();
  const perConnection = (bytes: number) =>
    final.connected === 0 ? 0 : Math.round((bytes / final.connected / 1024) * 10) / 10;
  return {
    requested: options.count,
    attempted,
    ...(attempted < options.count ? { cappedBy: `the gateway's open-file limit (${limit + 100})` } : {}),
    connected: final.connected,
    failed: final.failed,
    retries: final.retries,
    ...(fleet.lastError ? { lastError: fleet.lastError } : {}),
    connectSeconds,
    heartbeatsAnswered: final.heartbeatsAnswered,
    gatewayRssBeforeMiB: mib(rssBefore),
    gatewayRssAfterMiB: mib(rssAfter),
    rssPerConnectionKiB: perConnection(rssAfter - rssBefore),
    ...(heapBeforeAfterGc !== undefined && heapAfterAfterGc !== undefined
      ? {
          heapPerConnectionKiB: perConnection(heapAfterAfterGc - heapBeforeAfterGc),
          heapReading: 'after a full collection' as const,
        }
      : {
          heapPerConnectionKiB:
            heapBefore.bytes === undefined || heapAfter.bytes === undefined
              ? null
              : perConnection(heapAfter.bytes - heapBefore.bytes),
          heapReading: 'lowest /metrics reading' as const,
        }),
  };
}
