import { connect } from '@nats-io/transport-node';
import ocppRpc from 'ocpp-rpc';
import pg from 'pg';
import { CommandSubjects, type CommandStatusChangedEvent } from '@cpc/contracts';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { apiCall } from './bench-setup.js';
import { LatencyRecorder, type LatencySummary } from './latency-recorder.js';
import type { Progress } from './progress.js';

interface RpcClient {
  connect(): Promise<unknown>;
  handle(action: string, handler: () => unknown): void;
  close(options?: { force?: boolean }): Promise<unknown>;
}
const RPCClient = (ocppRpc as unknown as { RPCClient: new (options: Record<string, unknown>) => RpcClient })
  .RPCClient;

const TERMINAL = new Set(['accepted', 'rejected', 'timeout', 'failed']);

export interface CommandStepResult {
  targetPerSecond: number;
  seconds: number;
  created: number;
  refused: number;
  /** Not sent because two seconds' worth of POSTs were still unanswered. */
  skipped: number;
  terminal: number;
  byStatus: Record<string, number>;
  /** Commands created per second while sending. */
  createdPerSecond: number;
  /** Terminal commands per second, from the first POST to the last terminal status. */
  endToEndPerSecond: number;
  postMs: LatencySummary;
  postToReceivedMs: LatencySummary;
  postToTerminalMs: LatencySummary;
}

/** A real OCPP-J charge point (ocpp-rpc, strict) that accepts ClearCache and notes when each call arrived. */
interface CommandChargePoint {
  uuid: string;
  client: RpcClient;
  received: number[];
  sent: number[];
}

async function seedFleet(target: BenchTarget, tenant: BenchTenant, count: number) {
  const location = await apiCall<{ location: { uuid: string } }>(
    target,
    tenant,
    'POST',
    '/assets/locations',
    {
      name: 'Bench command fleet',
    },
  );
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ uuid: string; ocpp_identity: string }>(
      `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
       SELECT gen_random_uuid(), $1, $2, 'Command ' || i, 'CMD-' || i, 0 FROM generate_series(1, $3) AS i
       RETURNING uuid, ocpp_identity`,
      [tenant.uuid, location.location.uuid, count],
    );
    return rows.rows;
  } finally {
    await client.end();
  }
}

export class CommandsBench {
  private constructor(
    private readonly target: BenchTarget,
    private readonly tenant: BenchTenant,
    private readonly chargePoints: CommandChargePoint[],
  ) {}

  static async start(target: BenchTarget, tenant: BenchTenant, count: number): Promise<CommandsBench> {
    const controllers = await seedFleet(target, tenant, count);
    const chargePoints = controllers.map((controller, index) => {
      const client = new RPCClient({
        endpoint: `${target.ocppUrl}/ocpp/${tenant.slug}`,
        identity: controller.ocpp_identity,
        protocols: [index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1'],
        strictMode: true,
        reconnect: false,
      });
      const chargePoint: CommandChargePoint = { uuid: controller.uuid, client, received: [], sent: [] };
      client.handle('ClearCache', () => {
        chargePoint.received.push(performance.now());
        return { status: 'Accepted' };
      });
      return chargePoint;
    });
    for (let index = 0; index < chargePoints.length; index += 20) {
      await Promise.all(
        chargePoints.slice(index, index + 20).map((chargePoint) => chargePoint.client.connect()),
      );
    }
    return new CommandsBench(target, tenant, chargePoints);
  }

  /** Creates commands at `perSecond` for `seconds` (open loop), then waits until every one is terminal. */
  async step(perSecond: number, seconds: number, progress: Progress): Promise<CommandStepResult> {
    const nats = await connect({ servers: this.target.natsUrl, name: 'bench' });
    const startedAt = new Map<string, number>();
    const terminalAt = new Map<string, number>();
    const byStatus: Record<string, number> = {};
    const subscription = nats.subscribe(CommandSubjects.statusChanged, {
      callback: (_error, message) => {
        const event = message.json<CommandStatusChangedEvent>();
        const { command_uuid: uuid, status } = event.data.command;
        if (!TERMINAL.has(status) || terminalAt.has(uuid)) return;
        terminalAt.set(uuid, performance.now());
        byStatus[status] = (byStatus[status] ?? 0) + 1;
      },
    });
    await nats.flush();
    for (const chargePoint of this.chargePoints) {
      chargePoint.received.length = 0;
      chargePoint.sent.length = 0;
    }

    const post = new LatencyRecorder();
    let refused = 0;
    let skipped = 0;
    let next = 0;
    const inFlight = new Set<Promise<void>>();
    const create = (chargePoint: CommandChargePoint) => {
      const begin = performance.now();
      chargePoint.sent.push(begin);
      const request = fetch(`${this.target.apiUrl}/api/v1/control/commands`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.tenant.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'clear_cache',
          target_type: 'controller',
          target_uuid: chargePoint.uuid,
        }),
      })
        .then(async (response) => {
          const body = (await response.json()) as { command?: { command_uuid: string } };
          if (!response.ok || !body.command) {
            refused += 1;
            return;
          }
          post.record(performance.now() - begin);
          startedAt.set(body.command.command_uuid, begin);
        })
        .catch(() => {
          refused += 1;
        })
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    };

    const sendStart = performance.now();
    const total = Math.round(perSecond * seconds);
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const due = Math.min(total, Math.floor(((performance.now() - sendStart) / 1000) * perSecond));
        for (; next < due; next += 1) {
          // Open loop, but bounded: past two seconds' worth of unanswered POSTs the platform is saturated, and
          // what it did create is the answer.
          if (inFlight.size >= perSecond * 2) skipped += 1;
          else create(this.chargePoints[next % this.chargePoints.length]);
        }
        progress.update(
          `commands @${perSecond}/s: ${next}/${total} sent, ${startedAt.size} created, ${terminalAt.size} terminal`,
        );
        if (next >= total) {
          clearInterval(timer);
          resolve();
        }
      }, 5);
    });
    const sendSeconds = (performance.now() - sendStart) / 1000;
    await Promise.all(inFlight);
    const deadline = performance.now() + 60_000;
    while ([...startedAt.keys()].some((uuid) => !terminalAt.has(uuid)) && performance.now() < deadline) {
      progress.update(`commands @${perSecond}/s: waiting, ${terminalAt.size}/${startedAt.size} terminal`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    subscription.unsubscribe();
    await nats.close();

    const postToTerminal = new LatencyRecorder();
    let lastTerminal = sendStart;
    for (const [uuid, begin] of startedAt) {
      const end = terminalAt.get(uuid);
      if (end === undefined) continue;
      postToTerminal.record(end - begin);
      lastTerminal = Math.max(lastTerminal, end);
    }
    // Each charge point gets its commands one at a time, oldest first: the n-th call it received is its n-th POST.
    const postToReceived = new LatencyRecorder();
    for (const chargePoint of this.chargePoints) {
      chargePoint.received.forEach((at, index) => postToReceived.record(at - chargePoint.sent[index]));
    }
    const terminal = postToTerminal.count;
    return {
      targetPerSecond: perSecond,
      seconds,
      created: startedAt.size,
      refused,
      skipped,
      terminal,
      byStatus,
      createdPerSecond: Math.round(startedAt.size / sendSeconds),
      endToEndPerSecond: Math.round(terminal / ((lastTerminal - sendStart) / 1000)),
      postMs: post.summary(),
      postToReceivedMs: postToReceived.summary(),
      postToTerminalMs: postToTerminal.summary(),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.chargePoints.map((chargePoint) => chargePoint.client.close({ force: true })));
  }
}
