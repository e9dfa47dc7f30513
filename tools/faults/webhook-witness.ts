import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface ReceivedWebhook {
  webhookId: string;
  commandUuid: string;
  status: string;
  previousStatus: string | null;
  /** Whether the Standard Webhooks signature checked out with the subscription's secret. */
  signed: boolean;
  at: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for the run's `command.status_changed` subscription: verifies every request with
 * the `standardwebhooks` package (an implementation independent of webhook-service's) and notes it. Every
 * `hangEvery`-th request is left unanswered (webhook-service times it out and retries), so deliveries are in flight
 * when a process dies.
 */
export class WebhookWitness {
  readonly received: ReceivedWebhook[] = [];
  private verifier: Webhook | undefined;
  private requests = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly hangEvery: number,
  ) {}

  static async start(hangEvery: number): Promise<WebhookWitness> {
    const witness: { current?: WebhookWitness } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (witness.current?.take(Buffer.concat(chunks).toString('utf8'), request.headers) === false) return;
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    witness.current = new WebhookWitness(server, `http://127.0.0.1:${port}/webhooks`, hangEvery);
    return witness.current;
  }

  /** The subscription's signing secret, once it is created. */
  useSecret(secret: string): void {
    this.verifier = new Webhook(secret);
  }

  /** Notes one request; false when it is to be left hanging. */
  private take(body: string, headers: Record<string, string | string[] | undefined>): boolean {
    this.requests += 1;
    let signed = false;
    try {
      this.verifier?.verify(body, headers as Record<string, string>);
      signed = this.verifier !== undefined;
    } catch {
      signed = false;
    }
    const { data } = JSON.parse(body) as {
      data: { command?: { command_uuid: string; status: string }; previous_status?: string | null };
    };
    if (data.command) {
      this.received.push({
        webhookId: String(headers['webhook-id']),
        commandUuid: data.command.command_uuid,
        status: data.command.status,
        previousStatus: data.previous_status ?? null,
        signed,
        at: Date.now(),
      });
    }
    return this.hangEvery <= 0 || this.requests % this.hangEvery !== 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What the receiver got, against what the commands went through. */
export interface WebhookCheck {
  /** Status changes the commands went through (each command's chain from `pending` to its last status). */
  expected: number;
  /** Distinct status changes received (first copy of each). */
  delivered: number;
  /** Status changes of the chains that never arrived. */
  lost: number;
  /** Copies past the first with the same webhook-id (allowed: at least once). */
  repeatedSameId: number;
  /** Status changes that arrived under two or more webhook-ids (a doubled delivery a receiver cannot drop). */
  doubled: number;
  /** Status changes whose first copy came before the first copy of the status before it. */
  outOfOrder: number;
  /** Requests whose signature did not verify. */
  badSignatures: number;
  samples: { lost: string[]; doubled: string[]; outOfOrder: string[] };
}

const SAMPLE_SIZE = 20;

/**
 * Checks the webhooks of each command by their `previous_status` chain: the chain from the command's last status
 * (`lastStatus`, as the API showed it at the end) back to `pending` must have arrived link by link, each link after the
 * one before it, and each status change under one webhook-id only.
 */
export function checkWebhooks(
  received: readonly ReceivedWebhook[],
  lastStatus: ReadonlyMap<string, string | undefined>,
): WebhookCheck {
  const check: WebhookCheck = {
    expected: 0,
    delivered: 0,
    lost: 0,
    repeatedSameId: 0,
    doubled: 0,
    outOfOrder: 0,
    badSignatures: received.filter((webhook) => !webhook.signed).length,
    samples: { lost: [], doubled: [], outOfOrder: [] },
  };
  const note = (kind: keyof WebhookCheck['samples'], what: string) => {
    if (check.samples[kind].length < SAMPLE_SIZE) check.samples[kind].push(what);
  };
  /** command → status → its first copy (index in arrival order) and webhook-ids. */
  const byCommand = new Map<
    string,
    Map<string, { index: number; previous: string | null; ids: Set<string> }>
  >();
  received.forEach((webhook, index) => {
    const statuses = byCommand.get(webhook.commandUuid) ?? new Map();
    byCommand.set(webhook.commandUuid, statuses);
    const first = statuses.get(webhook.status);
    if (!first) {
      statuses.set(webhook.status, {
        index,
        previous: webhook.previousStatus,
        ids: new Set([webhook.webhookId]),
      });
    } else if (first.ids.has(webhook.webhookId)) {
      check.repeatedSameId += 1;
    } else {
      first.ids.add(webhook.webhookId);
    }
  });
  for (const [commandUuid, status] of lastStatus) {
    if (status === undefined) continue;
    const statuses = byCommand.get(commandUuid) ?? new Map();
    check.delivered += statuses.size;
    for (const [name, first] of statuses) {
      if (first.ids.size > 1) {
        check.doubled += 1;
        note('doubled', `${commandUuid} ${name}: ${[...first.ids].join(', ')}`);
      }
    }
    // Walk the chain back from the last status.
    let current: string | null = status;
    const walked = new Set<string>();
    while (current !== null && !walked.has(current)) {
      walked.add(current);
      check.expected += 1;
      const link = statuses.get(current);
      if (!link) {
        check.lost += 1;
        note('lost', `${commandUuid} ${current}`);
        break;
      }
      const before = link.previous === null ? undefined : statuses.get(link.previous);
      if (before && before.index > link.index) {
        check.outOfOrder += 1;
        note('outOfOrder', `${commandUuid} ${link.previous} after ${current}`);
      }
      current = link.previous;
    }
  }
  return check;
}
