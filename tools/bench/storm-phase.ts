import pg from 'pg';
import type { BenchTarget, BenchTenant } from './bench-setup.js';
import { seedFleet } from './commands-phase.js';
import { FleetProcesses } from './fleet-processes.js';
import { fleetSizeFor } from './idle-phase.js';
import { JsonPoster } from './json-poster.js';
import type { ProcessUsageSampler } from './process-usage.js';
import type { Progress } from './progress.js';
import {
  checkDelivery,
  commandSample,
  commandsBeforeReconnect,
  type DeliveryCheck,
  firstReaching,
  mergeStormReports,
  type StormReading,
  stormIdTag,
  total,
} from './storm-plan.js';

/** How often the storm's progress (the fleet's count and the controllers shown online) is read. */
const READING_MS = 250;
/**
 * While charge points are still being accepted, the controllers shown online are counted only every this often: the
 * count reads every controller of the fleet, and at every reading it took a tenth of PostgreSQL's time in the storm.
 * The figure that matters, all accepted and shown online, comes after the last one is accepted, and from then on the
 * count is read every READING_MS.
 */
const ONLINE_READING_WHILE_ACCEPTING_MS = 1000;
/** The storm ends early when nothing moved for this long: no charge point accepted, shown online, connected or refused. */
const STALL_MS = 60_000;
/** How long a command may wait for its charge point to come back (valid_for_seconds of each). */
const COMMAND_VALIDITY_SECONDS = 600;
/** After the storm, how long the commands are waited for while they still arrive. */
const COMMAND_WAIT_MS = 60_000;
/** Before the kill, how long the initial connects' `online` status is waited for. */
const ONLINE_BEFORE_KILL_WAIT_MS = 120_000;

export interface StormOptions {
  chargePoints: number;
  connectors: number;
  retrySeconds: number;
  commandChargePoints: number;
  commandsEach: number;
  timeoutSeconds: number;
  connectsPerSecond: number;
}

export interface StormResult {
  requested: number;
  attempted: number;
  cappedBy?: string;
  connectors: number;
  /** Before the kill: charge points booted, and the seconds they took at --connect-rate. */
  initiallyReady: number;
  setUpSeconds: number;
  /** SIGKILL → the new instance answers /health/ready (the charge points wait for it, as a balancer would). */
  gatewayRestartSeconds: number;
  /** From the reconnect order on. */
  allAcceptedSeconds: number | null;
  /** Within ONLINE_READING_WHILE_ACCEPTING_MS when it comes before all are accepted, else within READING_MS. */
  allOnlineSeconds: number | null;
  /** Both: the figure "all online in N s". */
  allAcceptedAndOnlineSeconds: number | null;
  accepted: number;
  online: number;
  /** The API's own count of the storm's controllers shown `online`, read once at the end. */
  onlineInApi: number | string;
  bootRoundTripMs: Summary;
  /** Reconnect order → upgrade accepted (every socket opened), and → booted with every status answered. */
  connectMs: Summary;
  acceptedMs: Summary;
  bootStatuses: Record<string, number>;
  refused: number;
  refusedBy: Record<string, number>;
  connectErrors: Record<string, number>;
  callErrors: Record<string, number>;
  attempts: number;
  dropped: number;
  /** The last error a charge point of the fleet met (a refusal, a CALLERROR, a socket error), if any. */
  lastError?: string;
  commands: DeliveryCheck & {
    chargePoints: number;
    /** POSTs not answered 2xx, by status. */
    refusedBy: Record<string, number>;
    /** Status of the created commands at the end. */
    byStatus: Record<string, number>;
  };
  /**
   * The counts over time, every READING_MS (seconds since the reconnect order); `online` as last read (every
   * ONLINE_READING_WHILE_ACCEPTING_MS until all are accepted).
   */
  timeline: StormReading[];
}

type Summary = {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
};

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const epochNow = () => performance.timeOrigin + performance.now();
const seconds = (milliseconds: number) => Math.round(milliseconds / 100) / 10;

/**
 * The reconnect storm: `chargePoints` plain `ws` charge points (idle-fleet.ts, half 1.6, half 2.0.1) connect to one
 * gateway at --connect-rate, each sending BootNotification and a StatusNotification per connector. Then the gateway
 * is killed (SIGKILL); while it is down the first half of each sampled charge point's commands is created; a new
 * instance starts on the same port, and once it is ready every charge point reconnects in the same moment (no random
 * back-off; a refused or failed connect is tried again after a fixed delay) and boots again, while the rest of the
 * commands are created. Reported: the time until all are accepted (boot and statuses answered) and shown `online` by
 * their new connection in the assets database the API reads, the boot round trips, refusals and drops, and whether
 * the commands arrived, once each and in the order they were created.
 */
export async function runReconnectStormPhase(
  target: BenchTarget,
  tenant: BenchTenant,
  pids: Map<string, number>,
  options: StormOptions,
  sampler: ProcessUsageSampler,
  progress: Progress,
): Promise<StormResult> {
  const { killOcppGateway, startOcppGateway } = target;
  if (!killOcppGateway || !startOcppGateway)
    throw new Error(
      'the reconnect storm kills and starts the gateway: it needs the platform the bench starts',
    );
  const gatewayPid = pids.get('ocpp-gateway');
  if (gatewayPid === undefined) throw new Error('no ocpp-gateway process found on this machine');
  const { attempted, cappedBy } = fleetSizeFor(gatewayPid, options.chargePoints);
  progress.update(`reconnect storm: registering ${attempted} charge points`);
  const controllers = await seedFleet(target, tenant, attempted, 'STORM');
  const locationUuid = controllers[0].location_uuid;
  const sample = commandSample(attempted, options.commandChargePoints).map((index) => ({
    index,
    ...controllers[index],
  }));
  const fleet = FleetProcesses.start(
    {
      ocppUrl: target.ocppUrl,
      tenant: tenant.slug,
      heartbeatSeconds: 3600,
      connectsPerSecond: options.connectsPerSecond,
      storm: {
        connectors: options.connectors,
        commandIdentities: sample.map((chargePoint) => chargePoint.ocpp_identity),
        retryMs: options.retrySeconds * 1000,
      },
    },
    controllers.map((controller) => controller.ocpp_identity),
  );
  const database = new pg.Client({ connectionString: target.databaseUrl });
  await database.connect();
  const poster = new JsonPoster(target.apiUrl, { authorization: `Bearer ${tenant.token}` });
  try {
    const setUpStarted = performance.now();
    await fleet.settle(attempted, (now) =>
      progress.update(
        `reconnect storm: ${now.connected}/${attempted} connected, ${now.ready} booted, ${now.retries} retried, ` +
          `${now.failed} gave up`,
      ),
    );
    const setUpSeconds = seconds(performance.now() - setUpStarted);
    const initiallyReady = fleet.totals().ready;
    // The kill is measured against a fleet the platform shows online: its connect events are all processed.
    const waitUntil = performance.now() + ONLINE_BEFORE_KILL_WAIT_MS;
    for (;;) {
      const online = await onlineCount(database, tenant, locationUuid);
      progress.update(`reconnect storm: ${online}/${initiallyReady} shown online before the kill`);
      if (online >= initiallyReady || performance.now() > waitUntil) break;
      await sleep(500);
    }

    fleet.armStorm();
    await sleep(1000);
    const killedAt = new Date();
    progress.update('reconnect storm: killing the gateway (SIGKILL)');
    await killOcppGateway();
    const killed = performance.now();
    for (let waited = 0; fleet.totals().connected > 0 && waited < 10_000; waited += 250) await sleep(250);

    // Commands while the gateway is down: each charge point's in the order created, one after the other.
    const commands = new StormCommands(poster, sample);
    await commands.create(0, commandsBeforeReconnect(options.commandsEach));

    progress.update('reconnect storm: starting a new gateway instance');
    const newPid = await startOcppGateway();
    pids.set('ocpp-gateway', newPid);
    const gatewayRestartSeconds = seconds(performance.now() - killed);

    // The usage is the storm's: from the reconnect order on, the new gateway's process included.
    sampler.begin();
    const orderedAt = epochNow();
    fleet.reconnect();
    const during = commands.create(commandsBeforeReconnect(options.commandsEach), options.commandsEach);
    const timeline: StormReading[] = [];
    const deadline = performance.now() + options.timeoutSeconds * 1000;
    let moved = performance.now();
    let lastActivity = '';
    let online = 0;
    let onlineReadAt = -Infinity;
    for (;;) {
      await sleep(READING_MS);
      const totals = fleet.totals();
      if (
        totals.stormReady >= attempted ||
        performance.now() - onlineReadAt >= ONLINE_READING_WHILE_ACCEPTING_MS
      ) {
        onlineReadAt = performance.now();
        online = await onlineCount(database, tenant, locationUuid, killedAt);
      }
      const reading: StormReading = {
        seconds: Math.round((epochNow() - orderedAt) / 10) / 100,
        accepted: totals.stormReady,
        online,
      };
      timeline.push(reading);
      // Refusals and sockets opening count as movement too: a busy gateway may accept none for a while.
      const activity = [reading.accepted, reading.online, totals.connected, totals.stormRefused].join();
      if (activity !== lastActivity) [lastActivity, moved] = [activity, performance.now()];
      progress.update(
        `reconnect storm: ${reading.accepted}/${attempted} accepted, ${reading.online} online, ` +
          `${totals.connected} connected, ${totals.stormRefused} refused, ${reading.seconds} s`,
      );
      const done = reading.accepted >= attempted && reading.online >= attempted;
      if (done || performance.now() > deadline || performance.now() - moved > STALL_MS) break;
    }
    await during;

    progress.update('reconnect storm: waiting for the commands');
    const received = await commands.waitForArrivals(() => fleet.commandsReceived());
    const byStatus = await commandStatuses(database, commands.uuids);
    const onlineInApi = await apiOnlineCount(target, tenant, locationUuid).catch((error: unknown) =>
      error instanceof Error ? error.message : String(error),
    );
    const storm = mergeStormReports(await fleet.endStorm());
    const allAcceptedSeconds =
      storm.ready >= attempted && storm.lastReadyAt !== null ? seconds(storm.lastReadyAt - orderedAt) : null;
    const allOnlineSeconds = firstReaching(timeline, 'online', attempted);
    const final = timeline.at(-1);
    return {
      requested: options.chargePoints,
      attempted,
      ...(cappedBy ? { cappedBy } : {}),
      connectors: options.connectors,
      initiallyReady,
      setUpSeconds,
      gatewayRestartSeconds,
      allAcceptedSeconds,
      allOnlineSeconds,
      allAcceptedAndOnlineSeconds:
        allAcceptedSeconds === null || allOnlineSeconds === null
          ? null
          : Math.max(allAcceptedSeconds, allOnlineSeconds),
      accepted: storm.ready,
      online: final?.online ?? 0,
      onlineInApi,
      bootRoundTripMs: storm.bootRoundTripMs.summary(),
      connectMs: storm.connectMs.summary(),
      acceptedMs: storm.readyMs.summary(),
      bootStatuses: storm.bootStatuses,
      refused: total(storm.refusedBy),
      refusedBy: storm.refusedBy,
      connectErrors: storm.errorsBy,
      callErrors: storm.callErrors,
      attempts: storm.attempts,
      dropped: storm.dropped,
      ...(fleet.lastError ? { lastError: fleet.lastError } : {}),
      commands: {
        chargePoints: sample.length,
        refusedBy: commands.refusedBy,
        byStatus,
        ...checkDelivery(commands.created, received),
      },
      timeline,
    };
  } finally {
    fleet.stop();
    poster.close();
    await database.end();
  }
}

/** The storm's controllers shown `online`; with `since`, only by a connection opened from then on. */
async function onlineCount(
  database: pg.Client,
  tenant: BenchTenant,
  locationUuid: string,
  since?: Date,
): Promise<number> {
  const { rows } = await database.query<{ online: number }>(
    `SELECT count(*)::integer AS online FROM assets.controllers
      WHERE tenant_uuid = $1 AND location_uuid = $2 AND connection_status = 'online'
        AND ($3::timestamptz IS NULL OR connection_changed_at >= $3::timestamptz)`,
    [tenant.uuid, locationUuid, since ?? null],
  );
  return rows[0].online;
}

async function commandStatuses(database: pg.Client, uuids: string[]): Promise<Record<string, number>> {
  const { rows } = await database.query<{ status: string; count: number }>(
    `SELECT status, count(*)::integer AS count FROM control.commands WHERE uuid = ANY($1::uuid[]) GROUP BY status`,
    [uuids],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/**
 * The API's count of the storm's controllers shown online: a page of one, whose number of pages is the count (the
 * lists carry no total).
 */
async function apiOnlineCount(
  target: BenchTarget,
  tenant: BenchTenant,
  locationUuid: string,
): Promise<number> {
  const query = `filter[location_uuid]=${locationUuid}&filter[connection_status]=online&limit=1`;
  const response = await fetch(`${target.apiUrl}/api/v1/assets/controllers?${query}`, {
    headers: { authorization: `Bearer ${tenant.token}` },
  });
  if (!response.ok) throw new Error(`GET /assets/controllers answered ${response.status}`);
  const body = (await response.json()) as { controllers: unknown[]; pagination: { total_pages: number } };
  return body.controllers.length === 0 ? 0 : body.pagination.total_pages;
}

/** The remote starts of the storm's command sample: created one after the other per charge point, in order. */
class StormCommands {
  /** Id tags of the created commands, by identity, in order of creation. */
  readonly created = new Map<string, string[]>();
  readonly uuids: string[] = [];
  readonly refusedBy: Record<string, number> = {};

  constructor(
    private readonly poster: JsonPoster,
    private readonly sample: { index: number; uuid: string; ocpp_identity: string }[],
  ) {
    for (const chargePoint of sample) this.created.set(chargePoint.ocpp_identity, []);
  }

  /** Commands number `from` to `to - 1` of every sampled charge point, the charge points in parallel. */
  async create(from: number, to: number): Promise<void> {
    await Promise.all(
      this.sample.map(async (chargePoint) => {
        for (let command = from; command < to; command += 1) {
          const idTag = stormIdTag(chargePoint.index, command);
          const answer = await this.poster
            .post('/api/v1/control/commands', {
              type: 'remote_start',
              target_type: 'controller',
              target_uuid: chargePoint.uuid,
              parameters: { id_tag: idTag },
              valid_for_seconds: COMMAND_VALIDITY_SECONDS,
            })
            .catch(() => ({ status: 0, body: undefined }));
          const uuid = (answer.body as { command?: { command_uuid?: string } } | undefined)?.command
            ?.command_uuid;
          if (answer.status >= 200 && answer.status < 300 && uuid) {
            this.created.get(chargePoint.ocpp_identity)!.push(idTag);
            this.uuids.push(uuid);
          } else {
            const reason = answer.status === 0 ? 'network' : String(answer.status);
            this.refusedBy[reason] = (this.refusedBy[reason] ?? 0) + 1;
          }
        }
      }),
    );
  }

  /** What the charge points received, once all created commands arrived or COMMAND_WAIT_MS passed without one more. */
  async waitForArrivals(received: () => Record<string, string[]>): Promise<Record<string, string[]>> {
    const expected = this.uuids.length;
    const arrived = () => Object.values(received()).reduce((sum, tags) => sum + tags.length, 0);
    let last = arrived();
    let moved = performance.now();
    while (last < expected && performance.now() - moved < COMMAND_WAIT_MS) {
      await sleep(500);
      const now = arrived();
      if (now !== last) [last, moved] = [now, performance.now()];
    }
    // The children report every second: one more report so the last arrivals are in.
    await sleep(1100);
    return received();
  }
}
