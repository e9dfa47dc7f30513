import WebSocket from 'ws';
import type { OcppProtocol } from '@cpc/contracts';

/** A gateway given by its port (on 127.0.0.1) or by its `ws://host:port` address. */
function gatewayUrl(gateway: number | string): string {
  return typeof gateway === 'number' ? `ws://127.0.0.1:${gateway}` : gateway;
}

export interface UpgradeAttempt {
  path: string;
  protocols?: string[];
  /** user:password for HTTP Basic. */
  basicAuth?: string;
  headers?: Record<string, string>;
  /** Local address to connect from (127.0.0.2, 127.0.0.3, ... where the address matters). */
  localAddress?: string;
}

/** Tries a WebSocket upgrade to `gateway` and tells how it ended: the HTTP status of a refusal, or 101 when a socket opened. */
export function upgradeStatus(
  gateway: number | string,
  attempt: UpgradeAttempt,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...attempt.headers };
    if (attempt.basicAuth !== undefined)
      headers.authorization = `Basic ${Buffer.from(attempt.basicAuth).toString('base64')}`;
    const socket = new WebSocket(`${gatewayUrl(gateway)}${attempt.path}`, attempt.protocols ?? ['ocpp1.6'], {
      headers,
      ...(attempt.localAddress ? { localAddress: attempt.localAddress } : {}),
    });
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.on('open', () => {
      socket.close();
      resolve({ status: 101, body: '' });
    });
    socket.on('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

/** A raw WebSocket to the gateway for sending what no OCPP library would send. */
export async function rawSocket(
  gateway: number | string,
  controller: { tenantSlug: string; identity: string; password?: string },
  protocol: OcppProtocol,
  options: { autoPong?: boolean } = {},
): Promise<RawSocket> {
  const socket = new WebSocket(
    `${gatewayUrl(gateway)}/ocpp/${controller.tenantSlug}/${controller.identity}`,
    [protocol],
    {
      headers: {
        authorization: `Basic ${Buffer.from(`${controller.identity}:${controller.password ?? ''}`).toString('base64')}`,
      },
      autoPong: options.autoPong ?? true,
    },
  );
  const raw = new RawSocket(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return raw;
}

export class RawSocket {
  readonly received: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      try {
        this.received.push(JSON.parse(data.toString('utf8')));
      } catch {
        this.received.push(data.toString('utf8'));
      }
      const waiters = this.waiters;
      this.waiters = [];
      waiters.forEach((wake) => wake());
    });
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
    );
  }

  send(data: string | Buffer): void {
    this.socket.send(data);
  }

  /** The next message received after the ones already consumed (`index`), waiting up to `timeoutMs`. */
  async message(index: number, timeoutMs = 5000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length <= index) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no message #${index} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received[index];
  }

  close(): void {
    this.socket.close();
  }
}
