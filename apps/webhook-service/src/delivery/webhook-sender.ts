import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type CheckedAddress, type TargetGuard, TargetRefusedError } from './target-guard.js';

export interface SenderLimits {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  responseBodyLimitBytes: number;
  /** How long a connection to a receiver stays open without a request, for the next request to it. */
  idleConnectionMs: number;
  /** Idle connections kept open per receiver address at most. */
  maxIdleConnectionsPerReceiver: number;
}

/** What one attempt came to: a status from the receiver, or an error before one (refused, timeout, reset…). */
export interface AttemptResult {
  statusCode: number | null;
  /** Why it failed (no secret or header in it), or null on a 2xx. */
  error: string | null;
}

/** Errors of a kept-alive connection the receiver closed while it was idle: the request never reached it whole. */
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** One request, its receiver's address resolved and checked. */
interface PinnedRequest {
  target: URL;
  checked: CheckedAddress;
  headers: Record<string, string | number>;
  body: string;
}

/**
 * POSTs one webhook: the host is resolved and checked by the TargetGuard on every call, and the connection goes to
 * exactly the address that was checked (no second lookup); connect and response time out; redirects are not followed
 * (a 3xx is a failure like any non-2xx); at most responseBodyLimitBytes of the body are read.
 *
 * Connections are kept alive and reused: the request is made to the checked address itself (the URL's host goes in
 * the Host header and, for https, in SNI and the certificate check), so the agents pool connections per checked
 * address (and, for https, per server name): a connection is only ever reused for a request whose host has just
 * resolved to its address and passed the checks; a host that now resolves elsewhere gets a connection of its own, one
 * that is refused gets none. A response read only up to the limit, a timeout or an error closes its connection.
 */
export class WebhookSender {
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };

  constructor(
    private readonly guard: TargetGuard,
    private readonly limits: SenderLimits,
  ) {
    const pooling = {
      keepAlive: true,
      // Closes an idle connection after this long (a shorter `Keep-Alive: timeout` of the receiver wins).
      timeout: limits.idleConnectionMs,
      maxFreeSockets: limits.maxIdleConnectionsPerReceiver,
      scheduling: 'lifo' as const,
    };
    this.agents = { 'http:': new http.Agent(pooling), 'https:': new https.Agent(pooling) };
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const target = new URL(url);
    let checked: CheckedAddress;
    try {
      checked = await this.guard.resolve(target.hostname);
    } catch (error) {
      if (error instanceof TargetRefusedError)
        return { statusCode: null, error: `refused: ${error.message}` };
      throw error;
    }
    const request: PinnedRequest = {
      target,
      checked,
      headers: {
        ...headers,
        host: target.host,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'charging-platform-core-webhooks/1',
      },
      body,
    };
    const pooled = await this.post(request, true);
    if (pooled !== 'stale connection') return pooled;
    // A kept-alive connection the receiver had just closed: once more on a new connection of its own.
    const fresh = await this.post(request, false);
    return fresh === 'stale connection' ? { statusCode: null, error: 'connection reset' } : fresh;
  }

  /** Closes the idle connections (in-flight requests end as they would). */
  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  /**
   * One POST, on a pooled connection (`pooled`) or on a new one closed after it; 'stale connection' when a reused
   * connection failed before any answer.
   */
  private post(
    { target, checked, headers, body }: PinnedRequest,
    pooled: boolean,
  ): Promise<AttemptResult | 'stale connection'> {
    const secure = target.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      let answered = false;
      const finish = (result: AttemptResult | 'stale connection') => {
        if (settled) return;
        settled = true;
        clearTimeout(responseTimer);
        clearTimeout(connectTimer);
        resolve(result);
      };
      const request = (secure ? https : http).request(
        {
          protocol: target.protocol,
          // The checked address itself: nothing is looked up again, and the agent pools per address.
          hostname: checked.address,
          family: checked.family,
          port: target.port || (secure ? 443 : 80),
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          agent: pooled ? this.agents[secure ? 'https:' : 'http:'] : false,
          // The name the certificate must carry (none for an address: RFC 6066 has no SNI for it).
          ...(secure && isIP(target.hostname.replace(/^\[|\]$/g, '')) === 0
            ? { servername: target.hostname }
            : {}),
          headers: pooled ? headers : { ...headers, connection: 'close' },
        },
        (response) => {
          answered = true;
          const statusCode = response.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let received = 0;
          const done = () => {
            const excerpt = Buffer.concat(chunks)
              .toString('utf8')
              .slice(0, this.limits.responseBodyLimitBytes);
            const ok = statusCode >= 200 && statusCode < 300;
            finish({ statusCode, error: ok ? null : `HTTP ${statusCode}${excerpt ? `: ${excerpt}` : ''}` });
          };
          response.on('data', (chunk: Buffer) => {
            if (received < this.limits.responseBodyLimitBytes) chunks.push(chunk);
            received += chunk.length;
            if (received >= this.limits.responseBodyLimitBytes) {
              done();
              // The rest is not read: the connection goes with it, never back to the pool.
              response.destroy();
            }
          });
          // Read to its end, the connection goes back to the pool.
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
        if (request.reusedSocket) clearTimeout(connectTimer);
        else socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        const stale = request.reusedSocket && !answered && STALE_CONNECTION_ERRORS.has(error.code ?? '');
        finish(stale ? 'stale connection' : { statusCode: null, error: error.message });
      });
      request.end(body);
    });
  }
}
