import { monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { type LatencySummary, summarizeLoopDelay } from './latency-recorder.js';
import { LatencyHistogram } from './telemetry-schedule.js';

/**
 * A charge point speaking OCPP-J over plain `ws`: its calls as JSON text, the answers matched by message id. The
 * gateway validates what it receives and what it sends; an RPC library here (ocpp-rpc took about a fifth of a core
 * per 1,000 calls/s) would only add the load generator's own CPU, and its pauses, to every round trip measured.
 */
class PlainOcppClient {
  private readonly pending = new Map<string, (message: unknown[]) => void>();
  private lastId = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as unknown[];
      if (message[0] === 2) {
        socket.send(JSON.stringify([4, message[1], 'NotImplemented', '', {}]));
        return;
      }
      const id = String(message[1]);
      const settle = this.pending.get(id);
      this.pending.delete(id);
      settle?.(message);
    });
    socket.on('close', () => {
      for (const settle of this.pending.values()) settle([4, '', 'ConnectionClosed']);
      this.pending.clear();
    });
  }

  static open(url: string, protocol: string): Promise<PlainOcppClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, [protocol], { perMessageDeflate: false });
      socket.once('open', () => resolve(new PlainOcppClient(socket)));
      socket.once('error', reject);
    });
  }

  call(action: string, payload: unknown): Promise<unknown> {
    this.lastId += 1;
    const id = String(this.lastId);
    this.socket.send(`[2,"${id}","${action}",${JSON.stringify(payload)}]`);
    return new Promise((resolve, reject) =>
      this.pending.set(id, (message) =>
        message[0] === 3 ? resolve(message[2]) : reject(new Error(`CALLERROR ${String(message[2])}`)),
      ),
    );
  }

  close(): void {
    this.socket.terminate();
  }
}

/** How often a batch of Authorize calls goes out; the rate is spread over the ticks of each second. */
const TICK_MS = 10;
/** Of the id tags sent, this share names a token of the tenant; the rest are unknown (refused: the tenant is strict). */
const KNOWN_SHARE = 0.9;
/** The sampling interval of this process's event-loop delay histogram. */
const LOOP_DELAY_RESOLUTION_MS = 10;

/** One child's share of the Authorize load: its charge points and its part of the rate. */
export interface AuthorizeLoadOrder {
  endpoint: string;
  /** The charge points' identities, with whether each speaks 1.6 (else 2.0.1). */
  chargePoints: { identity: string; v16: boolean }[];
  tokens: number;
  rate: number;
  seconds: number;
  warmUpMs: number;
}

export interface AuthorizeLoadReport {
  sent: number;
  answered: number;
  failed: number;
  skipped: number;
  byStatus: Record<string, number>;
  /** Round trips of the counted calls, as LatencyHistogram buckets (merged by the parent). */
  roundTrips: Record<number, number>;
  /** This process's event-loop delay during the load, in milliseconds past the sampling interval. */
  loopDelayMs: LatencySummary;
  cpuMs: number;
}

export type AuthorizeLoadMessage =
  { connected: number } | { report: AuthorizeLoadReport } | { error: string };

/** Connects the order's charge points and sends one Authorize from each (the warm-up of the gateway's cache). */
async function connect(order: AuthorizeLoadOrder) {
  const clients = await Promise.all(
    order.chargePoints.map(async ({ identity, v16 }) => {
      const client = await PlainOcppClient.open(
        `${order.endpoint}/${identity}`,
        v16 ? 'ocpp1.6' : 'ocpp2.0.1',
      );
      return { client, v16 };
    }),
  );
  const authorize = (at: number) => {
    const { client, v16 } = clients[at % clients.length];
    const known = Math.random() < KNOWN_SHARE;
    const tag = known
      ? `A${Math.floor(Math.random() * order.tokens)}`
      : `U${Math.floor(Math.random() * 1e9)}`;
    return client
      .call('Authorize', v16 ? { idTag: tag } : { idToken: { idToken: tag, type: 'ISO14443' } })
      .then((answer) => {
        const info = answer as { idTagInfo?: { status: string }; idTokenInfo?: { status: string } };
        return (info.idTagInfo ?? info.idTokenInfo)?.status ?? 'none';
      });
  };
  await Promise.all(clients.map((_, index) => authorize(index)));
  return { clients, authorize };
}

/** Sends Authorize at the order's rate, paced by the clock, round robin over the charge points. */
export async function runAuthorizeLoad(
  order: AuthorizeLoadOrder,
  authorize: (at: number) => Promise<string>,
): Promise<AuthorizeLoadReport> {
  const roundTrips = new LatencyHistogram();
  const byStatus: Record<string, number> = {};
  let [sent, answered, failed, skipped, outstanding] = [0, 0, 0, 0, 0];
  const started = performance.now();
  const warmUpEnds = started + order.warmUpMs;
  const ends = warmUpEnds + order.seconds * 1000;
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  let cpuAtWarmUpEnd: NodeJS.CpuUsage | undefined;
  let issued = 0;
  while (performance.now() < ends) {
    if (!cpuAtWarmUpEnd && performance.now() >= warmUpEnds) {
      cpuAtWarmUpEnd = process.cpuUsage();
      loopDelay.enable();
    }
    // Paced by the clock, not by the ticks: a late tick sends what fell due meanwhile.
    const due = Math.floor(((performance.now() - started) * order.rate) / 1000) - issued;
    for (let i = 0; i < due; i += 1) {
      issued += 1;
      if (outstanding > order.rate * 2) {
        skipped += 1;
        continue;
      }
      const begin = performance.now();
      const counted = begin >= warmUpEnds;
      outstanding += 1;
      if (counted) sent += 1;
      authorize(issued).then(
        (status) => {
          outstanding -= 1;
          if (!counted) return;
          answered += 1;
          byStatus[status] = (byStatus[status] ?? 0) + 1;
          roundTrips.record(performance.now() - begin);
        },
        () => {
          outstanding -= 1;
          if (counted) failed += 1;
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuAtWarmUpEnd);
  while (outstanding > 0) await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  return {
    sent,
    answered,
    failed,
    skipped,
    byStatus,
    roundTrips: roundTrips.buckets,
    loopDelayMs: summarizeLoopDelay(loopDelay, LOOP_DELAY_RESOLUTION_MS),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
}

// A child process of the authorize phase: `{ order }` connects, `{ go: true }` runs the load and reports.
if (process.send) {
  let connected: Awaited<ReturnType<typeof connect>> | undefined;
  let order: AuthorizeLoadOrder | undefined;
  const send = (message: AuthorizeLoadMessage) => process.send?.(message);
  process.on('message', (message: { order: AuthorizeLoadOrder } | { go: true }) => {
    if ('order' in message) {
      order = message.order;
      connect(order).then(
        (ready) => {
          connected = ready;
          send({ connected: ready.clients.length });
        },
        (error: unknown) => send({ error: String(error) }),
      );
    } else if (connected && order) {
      const { clients, authorize } = connected;
      runAuthorizeLoad(order, authorize)
        .then((report) => send({ report }))
        .catch((error: unknown) => send({ error: String(error) }))
        .finally(() => clients.forEach(({ client }) => client.close()));
    }
  });
  process.on('disconnect', () => process.exit(0));
}
