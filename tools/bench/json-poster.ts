import { Agent, request } from 'node:http';

export interface PostedJson {
  status: number;
  body: unknown;
}

/**
 * POSTs JSON over keep-alive connections with node:http. The load generator shares the machine with the platform,
 * and fetch (undici with web streams, an AbortSignal and a transferable per request) was about a third of its CPU at
 * 150 commands/s; this costs a fraction of that, so more of the machine is left to what is measured.
 */
export class JsonPoster {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });

  constructor(
    private readonly baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {}

  post(path: string, body: unknown): Promise<PostedJson> {
    const payload = Buffer.from(JSON.stringify(body));
    return new Promise<PostedJson>((resolve, reject) => {
      const outgoing = request(
        new URL(path, this.baseUrl),
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...this.headers, 'content-type': 'application/json', 'content-length': payload.length },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text === '' ? undefined : JSON.parse(text);
            } catch {
              parsed = text;
            }
            resolve({ status: response.statusCode ?? 0, body: parsed });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
