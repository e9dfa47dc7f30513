import createClient, { type Client } from 'openapi-fetch';
import { AccessTokens, type Credentials } from './access-tokens.js';
import type {
  CommandParameters,
  CommandRequestOf,
  CommandTargetType,
  CommandType,
  CreateCommandResult,
} from './commands.js';
import type { paths } from './generated/openapi.js';
import { type Fetch, type RetryOptions, retryingFetch, type Sleep } from './retrying-fetch.js';

export interface PlatformClientOptions {
  /** Where the platform answers, without `/api/v1` (e.g. `https://cpc.example.com`). */
  baseUrl: string;
  credentials: Credentials;
  retry?: RetryOptions;
  /** Renew the access token this long before it expires (default 60 s). */
  refreshMarginSeconds?: number;
  /** The fetch to send requests with (default: the global one). */
  fetch?: Fetch;
  /** For tests: the clock and the wait between retries. */
  now?: () => number;
  sleep?: Sleep;
}

export interface CommandTarget<T extends CommandType> {
  target_type: CommandTargetType<T>;
  target_uuid: string;
}

export interface PlatformClient {
  /** Every route of the API, typed from the OpenAPI document (openapi-fetch: `api.GET('/api/v1/...', {...})`). */
  api: Client<paths>;
  tokens: AccessTokens;
  /** POST /api/v1/control/commands with the parameters of `type`, checked by the compiler. */
  createCommand<T extends CommandType>(
    type: T,
    target: CommandTarget<T>,
    parameters: CommandParameters<T>,
    options?: { valid_for_seconds?: number; idempotencyKey?: string },
  ): Promise<CreateCommandResult>;
}

/**
 * A client of the Charging Platform Core: logs in with the credentials, keeps the access token fresh, retries what
 * the API refuses for load (429, honouring Retry-After), and types every request and answer.
 */
export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = retryingFetch(options.fetch ?? ((request) => fetch(request)), options.retry, options.sleep);
  const tokens = new AccessTokens({
    baseUrl,
    credentials: options.credentials,
    fetch: send,
    refreshMarginSeconds: options.refreshMarginSeconds,
    now: options.now,
  });
  const authorizedFetch: Fetch = async (request) => {
    const token = await tokens.accessToken();
    const first = new Request(request.clone(), { headers: withBearer(request.headers, token) });
    const response = await send(first);
    if (response.status !== 401) return response;
    // Revoked or expired early (a password change, a revoked key): log in again once.
    tokens.invalidate(token);
    const fresh = await tokens.accessToken();
    if (fresh === token) return response;
    await response.body?.cancel();
    return send(new Request(request, { headers: withBearer(request.headers, fresh) }));
  };
  const api = createClient<paths>({ baseUrl, fetch: authorizedFetch });
  return {
    api,
    tokens,
    async createCommand(type, target, parameters, commandOptions = {}) {
      const body = { type, ...target, parameters, valid_for_seconds: commandOptions.valid_for_seconds };
      const { data, error, response } = await api.POST('/api/v1/control/commands', {
        body: body as unknown as CommandRequestOf<typeof type>,
        headers: commandOptions.idempotencyKey ? { 'Idempotency-Key': commandOptions.idempotencyKey } : {},
      });
      return data === undefined ? { error, response } : { data, response };
    },
  };
}

function withBearer(headers: Headers, token: string): Headers {
  const copy = new Headers(headers);
  copy.set('authorization', `Bearer ${token}`);
  return copy;
}
