import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server got it. */
export interface ScriptedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What the server answers a request with; a body that is not a string is sent as JSON. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * A real HTTP server on loopback (port 0) that records every request and answers what the test's script says: for
 * clients (the SDK) whose behaviour depends on exact statuses and headers a running platform gives only by chance.
 */
export class ScriptedHttpServer {
  readonly requests: ScriptedRequest[] = [];
  /** TCP connections clients opened to it (several requests on one kept-alive connection count once). */
  connections = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    public script: (request: ScriptedRequest, index: number) => ScriptedAnswer,
  ) {}

  static async start(
    script: (request: ScriptedRequest, index: number) => ScriptedAnswer,
  ): Promise<ScriptedHttpServer> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const scripted = new ScriptedHttpServer(server, `http://127.0.0.1:${port}`, script);
    server.on('connection', () => (scripted.connections += 1));
    server.on('request', (request: IncomingMessage, response: ServerResponse) =>
      scripted.answer(request, response),
    );
    return scripted;
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ScriptedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const answer = this.script(received, this.requests.push(received) - 1);
      const json = answer.body !== undefined && typeof answer.body !== 'string';
      response
        .writeHead(answer.status, {
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...answer.headers,
        })
        .end(json ? JSON.stringify(answer.body) : ((answer.body as string | undefined) ?? ''));
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
