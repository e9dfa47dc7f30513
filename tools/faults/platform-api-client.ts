import { setTimeout as sleep } from 'node:timers/promises';

export interface ApiAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route answers its own shape; callers check it
  body: any;
}

export interface Credentials {
  username: string;
  password: string;
  tenant: string;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Keep retrying outages (no connection, 5xx, 429, a token the restarted gateway cannot verify yet) until then. */
  retryUntil?: number;
}

export type ApiResult =
  | { ok: true; answer: ApiAnswer; attempts: number }
  | { ok: false; reason: string; attempts: number; answer?: ApiAnswer };

/** "503 {...} ×12, ECONNREFUSED ×3": what the attempts of a request met, for the report. */
function summarise(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => `${reason} ×${count}`).join(', ');
}

const REQUEST_TIMEOUT_MS = 15_000;

function isOutage(status: number): boolean {
  return status >= 500 || status === 429 || status === 401;
}

/**
 * The HTTP API as a client that lives through outages: a request that finds no api-gateway, gets a 5xx/429 or
 * times out is sent again, unchanged (so a POST keeps its Idempotency-Key), until `retryUntil`. A 401 fetches a new
 * token first.
 */
export class PlatformApiClient {
  private token: string | undefined;
  private tokenRequest: Promise<string> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly credentials: Credentials,
  ) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    const startedAt = Date.now();
    const reasons: string[] = [];
    let delayMs = 100;
    let lastAnswer: ApiAnswer | undefined;
    for (;;) {
      try {
        const answer = await this.send(method, path, options, await this.currentToken(options.retryUntil));
        if (!isOutage(answer.status)) return { ok: true, answer, attempts: reasons.length + 1 };
        if (answer.status === 401) this.token = undefined;
        reasons.push(`${answer.status} ${JSON.stringify(answer.body)}`);
        lastAnswer = answer;
      } catch (error) {
        reasons.push(describeFetchError(error));
      }
      if (options.retryUntil === undefined || Date.now() + delayMs > options.retryUntil) {
        const reason = `${summarise(reasons)} over ${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
        return { ok: false, attempts: reasons.length, reason, answer: lastAnswer };
      }
      await sleep(delayMs);
      delayMs = Math.min(delayMs * 2, 2000);
    }
  }

  private async send(
    method: string,
    path: string,
    options: RequestOptions,
    token: string,
  ): Promise<ApiAnswer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page, say): kept as text for the message.
    }
    return { status: response.status, body };
  }

  private async currentToken(retryUntil: number | undefined): Promise<string> {
    if (this.token) return this.token;
    this.tokenRequest ??= this.fetchToken(retryUntil).finally(() => {
      this.tokenRequest = undefined;
    });
    return this.tokenRequest;
  }

  private async fetchToken(retryUntil: number | undefined): Promise<string> {
    let delayMs = 100;
    for (;;) {
      let reason: string;
      try {
        const response = await fetch(`${this.baseUrl}/api/v1/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...this.credentials, context: 'user' }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const body = (await response.json().catch(() => ({}))) as { access_token?: string };
        if (response.status === 200 && body.access_token) {
          this.token = body.access_token;
          return body.access_token;
        }
        reason = `token endpoint answered ${response.status} ${JSON.stringify(body)}`;
        // Wrong credentials do not get better by asking again.
        if (response.status < 500 && response.status !== 429) throw new Error(reason);
      } catch (error) {
        if (!(error instanceof TypeError) && !(error instanceof DOMException)) throw error;
        reason = describeFetchError(error);
      }
      if (retryUntil === undefined || Date.now() + delayMs > retryUntil) throw new Error(reason);
      await sleep(delayMs);
      delayMs = Math.min(delayMs * 2, 2000);
    }
  }
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
