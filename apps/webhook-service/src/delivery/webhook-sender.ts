import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type TargetGuard, TargetRefusedError } from './target-guard.js';

export interface SenderLimits {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  responseBodyLimitBytes: number;
}

/** What one attempt came to: a status from the receiver, or an error before one (refused, timeout, reset…). */
export interface AttemptResult {
  statusCode: number | null;
  /** Why it failed (no secret or header in it), or null on a 2xx. */
  error: string | null;
}

/**
 * POSTs one webhook: the host is resolved and checked by the TargetGuard, and the connection goes to exactly the
 * address that was checked (no second lookup); connect and response time out; redirects are not followed (a 3xx is a
 * failure like any non-2xx); at most responseBodyLimitBytes of the body are read.
 */
export class WebhookSender {
  constructor(
    private readonly guard: TargetGuard,
    private readonly limits: SenderLimits,
  ) {}

  async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const target = new URL(url);
    let checked;
    try {
      checked = await this.guard.resolve(target.hostname);
    } catch (error) {
      if (error instanceof TargetRefusedError)
        return { statusCode: null, error: `refused: ${error.message}` };
      throw error;
    }
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [{ address: checked.address, family: checked.family }]);
      else callback(null, checked.address, checked.family);
    };
    const transport = target.protocol === 'https:' ? https : http;
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(responseTimer);
        clearTimeout(connectTimer);
        resolve(result);
      };
      const request = transport.request(
        target,
        {
          method: 'POST',
          agent: false,
          lookup: pinnedLookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'charging-platform-core-webhooks/1',
            connection: 'close',
          },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let received = 0;
          const done = () => {
            const excerpt = Buffer.concat(chunks)
              .toString('utf8')
              .slice(0, this.limits.responseBodyLimitBytes);
            const ok = statusCode >= 200 && statusCode < 300;
            finish({ statusCode, error: ok ? null : `HTTP ${statusCode}${excerpt ? `: ${excerpt}` : ''}` });
            response.destroy();
          };
          response.on('data', (chunk: Buffer) => {
            if (received < this.limits.responseBodyLimitBytes) chunks.push(chunk);
            received += chunk.length;
            if (received >= this.limits.responseBodyLimitBytes) done();
          });
          response.on('end', done);
          response.on('error', done);
        },
      );
      const connectTimer = setTimeout(() => {
        request.destroy(new Error(`connect timeout after ${this.limits.connectTimeoutMs} ms`));
      }, this.limits.connectTimeoutMs);
      const responseTimer = setTimeout(() => {
        request.destroy(new Error(`no response within ${this.limits.responseTimeoutMs} ms`));
      }, this.limits.responseTimeoutMs);
      request.on('socket', (socket) => {
        socket.once(target.protocol === 'https:' ? 'secureConnect' : 'connect', () =>
          clearTimeout(connectTimer),
        );
      });
      request.on('error', (error) => finish({ statusCode: null, error: error.message }));
      request.end(body);
    });
  }
}
