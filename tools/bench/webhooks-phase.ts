import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '@nats-io/transport-node';
import { CommandSubjects, type CommandStatusChangedEvent } from '@cpc/contracts';
import { apiCall, type BenchTarget, type BenchTenant, natsLogin } from './bench-setup.js';
import { CommandsBench } from './commands-phase.js';
import { LatencyRecorder, type LatencySummary } from './latency-recorder.js';
import type { Progress } from './progress.js';

export interface WebhooksPhaseOptions {
  chargePoints: number;
  /** Commands created per second; each remote start takes three statuses (pending, sent, accepted). */
  commandRate: number;
  seconds: number;
}

export interface WebhooksPhaseResult {
  commandRate: number;
  seconds: number;
  /** Command status events published while the phase ran, and per second of the sending window. */
  statusEvents: number;
  statusEventsPerSecond: number;
  /** Distinct events the healthy receiver got (its first copy of each). */
  delivered: number;
  /** Status events the healthy receiver never got (after deliveries stopped moving for the drain time). */
  lost: number;
  /** Copies past the first of a webhook-id, and events that came with two different webhook-ids. */
  repeated: number;
  differentIds: number;
  /** Healthy deliveries per second, from the first to the last one. */
  deliveriesPerSecond: number;
  /** Event (`timestamp` in the body: when command-service changed the status) → the healthy receiver has it. */
  eventToReceiverMs: LatencySummary;
  /** Requests to the receiver that never answers (each times out; retried with backoff). */
  timedOutReceiverRequests: number;
}

/** Stop waiting for the last deliveries after this long without a new one. */
const DRAIN_QUIET_MS = 15_000;

/** A receiver on 127.0.0.1: `answer` false never answers (webhook-service times the request out). */
async function startReceiver(onRequest: (body: string, webhookId: string) => void, answer: boolean) {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      onRequest(Buffer.concat(chunks).toString('utf8'), String(request.headers['webhook-id']));
      if (answer) response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Webhook deliveries under command traffic: two subscriptions to `command.status_changed`, one with a healthy
 * receiver and one whose receiver never answers; commands at `commandRate` through real charge points (the commands
 * phase's), every status change counted on NATS. Measures the healthy receiver's deliveries per second, its p99 from
 * the status change to the receiver, and what was lost or repeated.
 */
export async function runWebhooksPhase(
  target: BenchTarget,
  tenant: BenchTenant,
  options: WebhooksPhaseOptions,
  progress: Progress,
): Promise<WebhooksPhaseResult> {
  const latency = new LatencyRecorder();
  const idsByEvent = new Map<string, Set<string>>();
  const seenIds = new Set<string>();
  let repeated = 0;
  let firstAt = 0;
  let lastAt = 0;
  const healthy = await startReceiver((body, webhookId) => {
    const now = Date.now();
    if (seenIds.has(webhookId)) {
      repeated += 1;
      return;
    }
    seenIds.add(webhookId);
    const parsed = JSON.parse(body) as {
      timestamp: string;
      data: { command: { command_uuid: string; status: string } };
    };
    const key = `${parsed.data.command.command_uuid}/${parsed.data.command.status}`;
    const ids = idsByEvent.get(key) ?? new Set<string>();
    ids.add(webhookId);
    idsByEvent.set(key, ids);
    if (ids.size > 1) return;
    latency.record(now - Date.parse(parsed.timestamp));
    firstAt ||= now;
    lastAt = now;
  }, true);
  let timedOutReceiverRequests = 0;
  const stuck = await startReceiver(() => (timedOutReceiverRequests += 1), false);
  const subscribe = (url: string) =>
    apiCall(target, tenant, 'POST', '/webhooks', { url, event_types: ['command.status_changed'] });
  await subscribe(healthy.url);
  await subscribe(stuck.url);

  const login = natsLogin(target, 'bench');
  const nats = await connect({
    servers: target.natsUrl,
    name: 'bench-webhooks',
    ...(login.NATS_USER ? { user: login.NATS_USER, pass: login.NATS_PASSWORD } : {}),
  });
  const events = new Set<string>();
  const subscription = nats.subscribe(CommandSubjects.statusChanged, {
    callback: (_error, message) => {
      const { command } = message.json<CommandStatusChangedEvent>().data;
      events.add(`${command.command_uuid}/${command.status}`);
    },
  });
  await nats.flush();

  progress.update(`webhooks: connecting ${options.chargePoints} charge points`);
  const bench = await CommandsBench.start(target, tenant, options.chargePoints);
  try {
    const sendStart = Date.now();
    await bench.step(options.commandRate, options.seconds, progress);
    const sendSeconds = (Date.now() - sendStart) / 1000;
    let lastCount = -1;
    let movedAt = Date.now();
    while (idsByEvent.size < events.size && Date.now() - movedAt < DRAIN_QUIET_MS) {
      progress.update(`webhooks: ${idsByEvent.size}/${events.size} delivered`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (idsByEvent.size !== lastCount) [lastCount, movedAt] = [idsByEvent.size, Date.now()];
    }
    const statusEvents = events.size;
    return {
      commandRate: options.commandRate,
      seconds: options.seconds,
      statusEvents,
      statusEventsPerSecond: Math.round(statusEvents / sendSeconds),
      delivered: idsByEvent.size,
      lost: [...events].filter((key) => !idsByEvent.has(key)).length,
      repeated,
      differentIds: [...idsByEvent.values()].filter((ids) => ids.size > 1).length,
      deliveriesPerSecond: lastAt > firstAt ? Math.round(idsByEvent.size / ((lastAt - firstAt) / 1000)) : 0,
      eventToReceiverMs: latency.summary(),
      timedOutReceiverRequests,
    };
  } finally {
    subscription.unsubscribe();
    await nats.close();
    await bench.stop();
    await healthy.close();
    await stuck.close();
  }
}
