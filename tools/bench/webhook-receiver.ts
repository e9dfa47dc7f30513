import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver on 127.0.0.1 in a process of its own (the webhooks phase forks it): a healthy one answers 204 the
 * moment a request's body is in, one that never answers leaves webhook-service to time the request out. In the
 * bench's own process a receiver answered only when that loop, busy with the POSTs and the charge points, came round
 * to it: its wait was in every delivery's time and held the subscription's requests in flight longer.
 */
export interface ReceiverOrder {
  answer: boolean;
}

/** What the receiver keeps of the deliveries: the first copy of each webhook-id, by event. */
export interface ReceiverReport {
  requests: number;
  /** Copies past the first of a webhook-id. */
  repeated: number;
  /** Events (command/status) that came with more than one webhook-id. */
  differentIds: number;
  /** The events received, `<command uuid>/<status>`. */
  events: string[];
  /** Event (`timestamp` in the body) → received, milliseconds, one per event. */
  latenciesMs: number[];
  /** Per event as latenciesMs: when it happened (epoch milliseconds) and the command status it announced. */
  eventAtMs: number[];
  statuses: string[];
  firstAt: number;
  lastAt: number;
}

export type ReceiverMessage = { listening: string } | { received: number } | { report: ReceiverReport };
export type ReceiverCommand = { start: ReceiverOrder } | { report: true };

function runReceiver(order: ReceiverOrder, send: (message: ReceiverMessage) => void): void {
  const idsByEvent = new Map<string, Set<string>>();
  const seenIds = new Set<string>();
  const latenciesMs: number[] = [];
  const eventAtMs: number[] = [];
  const statuses: string[] = [];
  const report: Omit<ReceiverReport, 'events' | 'latenciesMs' | 'eventAtMs' | 'statuses' | 'differentIds'> = {
    requests: 0,
    repeated: 0,
    firstAt: 0,
    lastAt: 0,
  };
  const received = (body: string, webhookId: string) => {
    const now = Date.now();
    report.requests += 1;
    if (!order.answer) return;
    if (seenIds.has(webhookId)) {
      report.repeated += 1;
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
    const happenedAt = Date.parse(parsed.timestamp);
    latenciesMs.push(now - happenedAt);
    eventAtMs.push(happenedAt);
    statuses.push(parsed.data.command.status);
    report.firstAt ||= now;
    report.lastAt = now;
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (order.answer) response.writeHead(204).end();
      received(Buffer.concat(chunks).toString('utf8'), String(request.headers['webhook-id']));
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    send({ listening: `http://127.0.0.1:${port}/hook` });
  });
  setInterval(() => send({ received: order.answer ? idsByEvent.size : report.requests }), 250).unref();
  process.on('message', (command: ReceiverCommand) => {
    if (!('report' in command)) return;
    send({
      report: {
        ...report,
        differentIds: [...idsByEvent.values()].filter((ids) => ids.size > 1).length,
        events: [...idsByEvent.keys()],
        latenciesMs,
        eventAtMs,
        statuses,
      },
    });
  });
}

if (process.send) {
  process.once('message', (command: ReceiverCommand) => {
    if ('start' in command) runReceiver(command.start, (message) => process.send?.(message));
  });
  process.on('disconnect', () => process.exit(0));
}
