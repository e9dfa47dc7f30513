import { execFile } from 'node:child_process';
import { adminCliEntryPath } from '@cpc/platform-launcher';
import type { HeapAfterGc } from './heap-after-gc.js';

/** Where the platform under measurement answers. */
export interface BenchTarget {
  apiUrl: string;
  ocppUrl: string;
  databaseUrl: string;
  natsUrl: string;
  /** nats-server's monitoring address (its message counts), when the bench started it. */
  natsMonitorUrl?: string;
  /**
   * Passwords of the NATS users the bench logs in as (auth-service for the admin CLI, bench for its own watch): those
   * of the NATS the bench platform started, or NATS_PASSWORD_AUTH_SERVICE / NATS_PASSWORD_BENCH for a running one.
   */
  natsPasswords: Partial<Record<'auth-service' | 'bench', string>>;
  apiPort: number;
  /** GET /metrics of the ocpp-gateway (heap figures), when known. */
  ocppGatewayMetricsUrl?: string;
  /** GET /metrics of every service, by name, when known (event-loop delay figures). */
  serviceMetricsUrls?: Record<string, string>;
  /** The gateway's heap read after a full collection (the bench's own platform only). */
  openGatewayHeapAfterGc?: () => Promise<HeapAfterGc>;
  /** SIGKILLs the running ocpp-gateway, as a crash would end it, and waits until it is gone (own platform only). */
  killOcppGateway?: () => Promise<void>;
  /** Starts a new ocpp-gateway instance on the same ports and resolves with its pid once it is ready (own only). */
  startOcppGateway?: () => Promise<number>;
}

/** The bench's own tenant: every run makes a new one, so runs on one database never meet. */
export interface BenchTenant {
  slug: string;
  uuid: string;
  token: string;
}

/** NATS_USER/NATS_PASSWORD for a process of the bench that logs in as `user` (none against an open NATS). */
export function natsLogin(target: BenchTarget, user: 'auth-service' | 'bench'): Record<string, string> {
  const password = target.natsPasswords[user];
  return password ? { NATS_USER: user, NATS_PASSWORD: password } : {};
}

function admin(rootDir: string, target: BenchTarget, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [adminCliEntryPath(rootDir), ...args],
      {
        env: {
          ...process.env,
          DATABASE_URL: target.databaseUrl,
          NATS_URL: target.natsUrl,
          ...natsLogin(target, 'auth-service'),
        },
        cwd: rootDir,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`admin ${args[0]} failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>);
      },
    );
  });
}

/** Token requests the bench makes for its user before it gives up. */
const TOKEN_ATTEMPTS = 5;

export async function createBenchTenant(rootDir: string, target: BenchTarget): Promise<BenchTenant> {
  const slug = `bench-${Date.now().toString(36)}`;
  const password = `bench-password-${process.pid}`;
  const tenant = await admin(rootDir, target, ['tenant:create', '--slug', slug, '--name', 'Bench']);
  // The bench's charge points connect without credentials (profile 0), which a tenant must allow explicitly.
  await admin(rootDir, target, ['tenant:set-profile-0', '--slug', slug, '--allowed', 'true']);
  await admin(rootDir, target, ['role:create', '--tenant', slug, '--name', 'bench', '--permissions', '*']);
  await admin(rootDir, target, [
    ...['user:create', '--tenant', slug, '--email', `bench@${slug}.example`],
    ...['--password', password, '--role', 'bench'],
  ]);
  let body: { access_token?: string } = {};
  // A busy machine can keep auth-service from answering the first request in time (503): asked again, a few times.
  for (let attempt = 1; attempt <= TOKEN_ATTEMPTS && !body.access_token; attempt += 1) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 2000));
    const response = await fetch(`${target.apiUrl}/api/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `bench@${slug}.example`, password, tenant: slug }),
    });
    body = (await response.json()) as { access_token?: string };
    if (response.status !== 503) break;
  }
  if (!body.access_token) throw new Error(`no token for the bench user: ${JSON.stringify(body)}`);
  const uuid = (tenant.uuid ?? (tenant.tenant as { uuid?: string } | undefined)?.uuid) as string;
  return { slug, uuid, token: body.access_token };
}

/** POST/GET on the API as the bench user; a refusal stops the bench with the API's answer. */
export async function apiCall<T>(
  target: BenchTarget,
  tenant: BenchTenant,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${target.apiUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${tenant.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
