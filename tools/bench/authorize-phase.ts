import ocppRpc from 'ocpp-rpc';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { apiCall } from './bench-setup.js';
import { seedFleet } from './commands-phase.js';
import { LatencyRecorder, type LatencySummary } from './latency-recorder.js';
import type { Progress } from './progress.js';

interface RpcClient {
  connect(): Promise<unknown>;
  call(action: string, payload: unknown): Promise<unknown>;
  close(options?: { force?: boolean }): Promise<unknown>;
}
const RPCClient = (ocppRpc as unknown as { RPCClient: new (options: Record<string, unknown>) => RpcClient })
  .RPCClient;

/** How often a batch of Authorize calls goes out; the rate is spread over the ticks of each second. */
const TICK_MS = 10;
/** Of the id tags sent, this share names a token of the tenant; the rest are unknown (refused: the tenant is strict). */
const KNOWN_SHARE = 0.9;
/** Tokens one import carries (the API's limit). */
const IMPORT_SIZE = 10_000;

export interface AuthorizeOptions {
  chargePoints: number;
  tokens: number;
  rate: number;
  seconds: number;
}

export interface AuthorizeResult {
  chargePoints: number;
  tokens: number;
  targetPerSecond: number;
  sent: number;
  answered: number;
  failed: number;
  /** Not sent because two seconds' worth of calls were still unanswered. */
  skipped: number;
  answeredPerSecond: number;
  byStatus: Record<string, number>;
  roundTripMs: LatencySummary;
}

/**
 * Authorize round trips on one gateway: `tokens` id tokens imported for the tenant, `chargePoints` real OCPP-J
 * charge points (half 1.6, half 2.0.1, security profile 0) sending Authorize at `rate` per second in all, each call
 * timed from send to answer. The first calls load the tenant's tokens into the gateway's cache; the figures are the
 * steady state after it (a warm-up second is not counted).
 */
export async function runAuthorizePhase(
  target: BenchTarget,
  tenant: BenchTenant,
  options: AuthorizeOptions,
  progress: Progress,
): Promise<AuthorizeResult> {
  progress.update(`authorize: importing ${options.tokens} id tokens`);
  for (let first = 0; first < options.tokens; first += IMPORT_SIZE) {
    const count = Math.min(IMPORT_SIZE, options.tokens - first);
    await apiCall(target, tenant, 'POST', '/authorization/id-tokens:import', {
      id_tokens: Array.from({ length: count }, (_, index) => ({
        id_token: `A${first + index}`,
        type: 'iso14443',
      })),
    });
  }
  progress.update(`authorize: connecting ${options.chargePoints} charge points`);
  const controllers = await seedFleet(target, tenant, options.chargePoints, 'AUTH');
  const clients = await Promise.all(
    controllers.map(async (controller, index) => {
      const client = new RPCClient({
        endpoint: `${target.ocppUrl}/ocpp/${tenant.slug}`,
        identity: controller.ocpp_identity,
        protocols: [index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1'],
        strictMode: true,
        reconnect: false,
      });
      await client.connect();
      return { client, v16: index % 2 === 0 };
    }),
  );
  const authorize = (at: number) => {
    const { client, v16 } = clients[at % clients.length];
    const known = Math.random() < KNOWN_SHARE;
    const tag = known
      ? `A${Math.floor(Math.random() * options.tokens)}`
      : `U${Math.floor(Math.random() * 1e9)}`;
    return client
      .call('Authorize', v16 ? { idTag: tag } : { idToken: { idToken: tag, type: 'ISO14443' } })
      .then((answer) => {
        const info = answer as { idTagInfo?: { status: string }; idTokenInfo?: { status: string } };
        return (info.idTagInfo ?? info.idTokenInfo)?.status ?? 'none';
      });
  };
  try {
    await Promise.all(clients.map((_, index) => authorize(index)));
    return await load(options, clients.length, authorize, progress);
  } finally {
    await Promise.all(clients.map(({ client }) => client.close({ force: true }).catch(() => undefined)));
  }
}

async function load(
  options: AuthorizeOptions,
  chargePoints: number,
  authorize: (at: number) => Promise<string>,
  progress: Progress,
): Promise<AuthorizeResult> {
  const latency = new LatencyRecorder();
  const byStatus: Record<string, number> = {};
  let [sent, answered, failed, skipped, outstanding] = [0, 0, 0, 0, 0];
  const started = performance.now();
  const warmUpEnds = started + 1000;
  const ends = warmUpEnds + options.seconds * 1000;
  let issued = 0;
  while (performance.now() < ends) {
    // Paced by the clock, not by the ticks: a late tick sends what fell due meanwhile.
    const due = Math.floor(((performance.now() - started) * options.rate) / 1000) - issued;
    for (let i = 0; i < due; i += 1) {
      issued += 1;
      if (outstanding > options.rate * 2) {
        skipped += 1;
        continue;
      }
      const begin = performance.now();
      const counted = begin >= warmUpEnds;
      outstanding += 1;
      if (counted) sent += 1;
      // Round robin over the charge points by issue order: each gets rate / chargePoints calls a second.
      authorize(issued).then(
        (status) => {
          outstanding -= 1;
          if (!counted) return;
          answered += 1;
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          latency.record(performance.now() - begin);
        },
        () => {
          outstanding -= 1;
          if (counted) failed += 1;
        },
      );
    }
    progress.update(`authorize @${options.rate}/s: ${answered} answered`);
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  while (outstanding > 0) await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  return {
    chargePoints,
    tokens: options.tokens,
    targetPerSecond: options.rate,
    sent,
    answered,
    failed,
    skipped,
    answeredPerSecond: Math.round(answered / options.seconds),
    byStatus,
    roundTripMs: latency.summary(),
  };
}
