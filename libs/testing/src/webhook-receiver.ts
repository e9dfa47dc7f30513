import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a receiver got it. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * What the receiver answers: a status code, at once or when the promise settles (`hang up`: it closes the connection
 * without an answer then); `hang` keeps the request open without answering.
 */
export type ReceiverAnswer = number | Promise<number | 'hang up'> | 'hang';

/** A real HTTP receiver on loopback (port 0): records every request and answers as `answer` says. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** TCP connections opened to it (several requests on one kept-alive connection count once). */
  connections = 0;
  /** Requests not answered yet, and the most there were at once. */
  open = 0;
  mostOpenAtOnce = 0;
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    public answer: (webhook: ReceivedWebhook, index: number) => ReceiverAnswer,
  ) {}

  static async start(
    answer: (webhook: ReceivedWebhook, index: number) => ReceiverAnswer = () => 204,
    host = '127.0.0.1',
  ): Promise<WebhookReceiver> {
    const server = createServer();
    server.listen(0, host);
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    const receiver = new WebhookReceiver(server, `http://${shownHost}:${port}/hooks`, answer);
    server.on('connection', () => (receiver.connections += 1));
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      receiver.take(request, response),
    );
    return receiver;
  }

  /** The parsed bodies received, in order. */
  bodies(): { type: string; timestamp: string; data: Record<string, unknown> }[] {
    return this.received.map((webhook) => JSON.parse(webhook.body));
  }

  private take(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const webhook: ReceivedWebhook = {
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = this.received.push(webhook) - 1;
      const answer = this.answer(webhook, index);
      if (answer === 'hang') {
        this.hanging.add(response);
        return;
      }
      this.open += 1;
      this.mostOpenAtOnce = Math.max(this.mostOpenAtOnce, this.open);
      void Promise.resolve(answer).then((status) => {
        this.open -= 1;
        if (status === 'hang up') response.socket?.destroy();
        else response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? 'nope' : '');
      });
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
