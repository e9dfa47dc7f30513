import { monitorEventLoopDelay } from 'node:perf_hooks';
import { connect } from '@nats-io/transport-node';
import ocppRpc from 'ocpp-rpc';
import pg from 'pg';
import { CommandSubjects, type CommandStatusChangedEvent } from '@cpc/contracts';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { verdictOf } from './command-step-verdict.js';
import { apiCall, natsLogin } from './bench-setup.js';
import { JsonPoster } from './json-poster.js';
import { LatencyRecorder, type LatencySummary, summarizeLoopDelay } from './latency-recorder.js';
import type { Progress } from './progress.js';
import { FleetNames } from './fleet-names.js';

interface RpcClient {
  connect(): Promise<unknown>;
  handle(action: string, handler: (call: { params: RemoteStartParams }) => unknown): void;
  close(options?: { force?: boolean }): Promise<unknown>;
}
const RPCClient = (ocppRpc as unknown as { RPCClient: new (options: Record<string, unknown>) => RpcClient })
  .RPCClient;

const TERMINAL = new Set(['accepted', 'rejected', 'timeout', 'failed']);
/** How often the load generator's event loop is sampled for its own delay. */
const LOOP_DELAY_RESOLUTION_MS = 1;

export interface CommandStepResult {
  targetPerSecond: number;
  seconds: number;
  created: number;
  refused: number;
  /** Refused POSTs by HTTP status (`network` when no response came). */
  refusedBy: Record<string, number>;
  /** Not sent because two seconds' worth of POSTs were still unanswered. */
  skipped: number;
  terminal: number;
  byStatus: Record<string, number>;
  /** Calls that reached their charge point. */
  received: number;
  /** Whether the step held its rate (command-step-verdict.ts), and why not. */
  held: boolean;
  shortfalls: string[];
  /** Commands created per second while sending. */
  createdPerSecond: number;
  /** Terminal commands per second, from the first POST to the last terminal status. */
  endToEndPerSecond: number;
  postMs: LatencySummary;
  postToReceivedMs: LatencySummary;
  postToTerminalMs: LatencySummary;
  /**
   * The load generator's own event-loop delay while the step ran: the POSTs, the charge points and the status events
   * share its loop, so a delay there is in the latencies above too.
   */
  loadGeneratorDelayMs: LatencySummary;
}

/**
 * A real OCPP-J charge point (ocpp-rpc, strict) that accepts remote starts and notes when each call arrived, by the
 * id tag that names the command (so a call is matched to its own POST, whatever the order and whichever step).
 */
interface CommandChargePoint {
  uuid: string;
  client: RpcClient;
}

/** Remote start's id tag: the 1.6 RemoteStartTransaction carries it as `idTag`, 2.0.1 as `idToken.idToken`. */
interface RemoteStartParams {
  idTag?: string;
  idToken?: { idToken?: string };
}

/** The fleets this run has seeded. */
const fleetNames = new FleetNames();

/**
 * `count` controllers of security profile 0 at a new location, written straight into assets.controllers, with OCPP
 * identities `<prefix>-1`… (a later fleet of the same prefix in this run: `<prefix>2-1`…, see FleetNames).
 */
export async function seedFleet(
  target: BenchTarget,
  tenant: BenchTenant,
  count: number,
  fleetPrefix = 'CMD',
) {
  const prefix = fleetNames.next(fleetPrefix);
  const location = await apiCall<{ location: { uuid: string } }>(
    target,
    tenant,
    'POST',
    '/assets/locations',
    {
      name: `Bench fleet ${prefix}`,
    },
  );
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const rows = await client.query<{ uuid: string; ocpp_identity: string; location_uuid: string }>(
      `INSERT INTO assets.controllers (uuid, tenant_uuid, location_uuid, name, ocpp_identity, security_profile)
       SELECT gen_random_uuid(), $1, $2, $4 || ' ' || i, $4 || '-' || i, 0 FROM generate_series(1, $3) AS i
       RETURNING uuid, ocpp_identity, location_uuid`,
      [tenant.uuid, location.location.uuid, count, prefix],
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
    /** When each call arrived, by the id tag of its command. */
    private readonly receivedAt: Map<string, number>,
  ) {}

  /** Numbers every POST of the run; its id tag (`B<n>`, within 1.6's 20 characters) names it at the charge point. */
  private posted = 0;

  static async start(
    target: BenchTarget,
    tenant: BenchTenant,
    count: number,
    fleetPrefix = 'CMD',
  ): Promise<CommandsBench> {
    const controllers = await seedFleet(target, tenant, count, fleetPrefix);
    const receivedAt = new Map<string, number>();
    const noteArrival = ({ params }: { params: RemoteStartParams }) => {
      const idTag = params.idTag ?? params.idToken?.idToken;
      if (idTag !== undefined) receivedAt.set(idTag, performance.now());
      return { status: 'Accepted' };
    };
    const chargePoints = controllers.map((controller, index) => {
      const client = new RPCClient({
        endpoint: `${target.ocppUrl}/ocpp/${tenant.slug}`,
        identity: controller.ocpp_identity,
        protocols: [index % 2 === 0 ? 'ocpp1.6' : 'ocpp2.0.1'],
        strictMode: true,
        reconnect: false,
      });
      client.handle('RemoteStartTransaction', noteArrival);
      client.handle('RequestStartTransaction', noteArrival);
      return { uuid: controller.uuid, client };
    });
    for (let index = 0; index < chargePoints.length; index += 20) {
      await Promise.all(
        chargePoints.slice(index, index + 20).map((chargePoint) => chargePoint.client.connect()),
      );
    }
    return new CommandsBench(target, tenant, chargePoints, receivedAt);
  }

  /** Creates commands at `perSecond` for `seconds` (open loop), then waits until every one is terminal. */
  async step(perSecond: number, seconds: number, progress: Progress): Promise<CommandStepResult> {
    const login = natsLogin(this.target, 'bench');
    const nats = await connect({
      servers: this.target.natsUrl,
      name: 'bench',
      ...(login.NATS_USER ? { user: login.NATS_USER, pass: login.NATS_PASSWORD } : {}),
    });
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
    /** When each POST of this step began, by its command's id tag. */
    const postedAt = new Map<string, number>();

    const poster = new JsonPoster(this.target.apiUrl, { authorization: `Bearer ${this.tenant.token}` });
    const post = new LatencyRecorder();
    let refused = 0;
    const refusedBy: Record<string, number> = {};
    const refuse = (reason: string) => {
      refused += 1;
      refusedBy[reason] = (refusedBy[reason] ?? 0) + 1;
    };
    let skipped = 0;
    let next = 0;
    const inFlight = new Set<Promise<void>>();
    const create = (chargePoint: CommandChargePoint) => {
      const begin = performance.now();
      this.posted += 1;
      const idTag = `B${this.posted}`;
      postedAt.set(idTag, begin);
      const request = poster
        .post('/api/v1/control/commands', {
          type: 'remote_start',
          target_type: 'controller',
          target_uuid: chargePoint.uuid,
          parameters: { id_tag: idTag },
        })
        .then(({ status, body }) => {
          const created = (body as { command?: { command_uuid: string } } | undefined)?.command;
          if (status < 200 || status >= 300 || !created) {
            refuse(String(status));
            return;
          }
          post.record(performance.now() - begin);
          startedAt.set(created.command_uuid, begin);
        })
        .catch(() => refuse('network'))
        .finally(() => inFlight.delete(request));
      inFlight.add(request);
    };

    const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
    loopDelay.enable();
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
    // Wait for every command of the step while they still move (so the next step starts on an empty queue), but
    // give up after 30 s without a single one ending.
    let lastMoved = performance.now();
    let lastTerminal = terminalAt.size;
    while (
      [...startedAt.keys()].some((uuid) => !terminalAt.has(uuid)) &&
      performance.now() - lastMoved < 30_000
    ) {
      progress.update(`commands @${perSecond}/s: waiting, ${terminalAt.size}/${startedAt.size} terminal`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (terminalAt.size > lastTerminal) [lastTerminal, lastMoved] = [terminalAt.size, performance.now()];
    }
    loopDelay.disable();
    subscription.unsubscribe();
    await nats.close();
    poster.close();

    const postToTerminal = new LatencyRecorder();
    let lastEnded = sendStart;
    for (const [uuid, begin] of startedAt) {
      const end = terminalAt.get(uuid);
      if (end === undefined) continue;
      postToTerminal.record(end - begin);
      lastEnded = Math.max(lastEnded, end);
    }
    const postToReceived = new LatencyRecorder();
    for (const [idTag, begin] of postedAt) {
      const arrived = this.receivedAt.get(idTag);
      if (arrived !== undefined) postToReceived.record(arrived - begin);
    }
    const terminal = postToTerminal.count;
    const figures = {
      targetPerSecond: perSecond,
      created: startedAt.size,
      refused,
      skipped,
      terminal,
      byStatus,
      received: postToReceived.count,
      postToReceivedMs: postToReceived.summary(),
    };
    return {
      ...figures,
      ...verdictOf(figures),
      seconds,
      refusedBy,
      createdPerSecond: Math.round(startedAt.size / sendSeconds),
      endToEndPerSecond: Math.round(terminal / ((lastEnded - sendStart) / 1000)),
      postMs: post.summary(),
      postToTerminalMs: postToTerminal.summary(),
      loadGeneratorDelayMs: summarizeLoopDelay(loopDelay, LOOP_DELAY_RESOLUTION_MS),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.chargePoints.map((chargePoint) => chargePoint.client.close({ force: true })));
  }
}
