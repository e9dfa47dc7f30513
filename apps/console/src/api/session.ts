import { ApiError, NetworkError } from './errors';
import { readTokenClaims, scopeAllows, type TokenClaims } from './permissions';
import type { TokenResponse } from './types';

const TOKEN_PATH = '/api/v1/oauth/token';
/**
 * The refresh token survives a reload of the tab (sessionStorage: this tab only, gone when it closes); the access
 * token lives in memory only. Each refresh answers a new pair and the old refresh token stops working (rotation).
 */
const REFRESH_KEY = 'cpc-console.refresh-token';
/** Refresh this long before the access token expires, so requests never carry an expired one. */
const REFRESH_AHEAD_MS = 60_000;
/** The shortest wait before a scheduled refresh (tokens that live less than a minute). */
const MIN_REFRESH_DELAY_MS = 5_000;

export interface SignInRequest {
  tenant: string;
  username: string;
  password: string;
  /** An API key's public and private key instead of a user's e-mail and password. */
  apiKey: boolean;
}

export interface SignedIn {
  claims: TokenClaims;
  /** What was typed as the user name (e-mail or the API key's public key). */
  username: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

function retryAfter(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  const seconds = header === null ? NaN : Number(header);
  return Number.isFinite(seconds) ? seconds : undefined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (response.ok) throw new NetworkError(error);
    return { error: text.slice(0, 200) };
  }
}

function queryString(query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The console's one way to the API: the signed-in state, the tokens and every request. Requests carry the access
 * token; an answer 401 triggers one refresh (shared by all requests waiting) and one retry; a refresh that fails
 * ends the session. Listeners (React's useSyncExternalStore) hear every sign-in and sign-out.
 */
export class ApiSession {
  private accessToken: string | null = null;
  private signedIn: SignedIn | null = null;
  private refreshing: Promise<boolean> | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();
  /** Why the last session ended, when it was not the user's own sign-out; the sign-in screen shows it. */
  endedReason: string | null = null;

  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = window.sessionStorage,
    private readonly fetchImpl: typeof fetch = (input, init) => window.fetch(input, init),
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): SignedIn | null => this.signedIn;

  can(permission: string): boolean {
    return this.signedIn !== null && scopeAllows(this.signedIn.claims.scope, permission);
  }

  async signIn(request: SignInRequest): Promise<void> {
    const body: Record<string, string> = {
      grant_type: 'password',
      tenant: request.tenant,
      username: request.username,
      password: request.password,
    };
    // Users sign in with the tenant's default context; an API key has to say so.
    if (request.apiKey) body.context = 'apikey';
    const tokens = await this.tokenRequest(body);
    this.endedReason = null;
    this.accept(tokens, request.username);
  }

  /** After a reload: a refresh token of this tab signs in again without a password. */
  async resume(): Promise<boolean> {
    const username = this.storage.getItem(`${REFRESH_KEY}.username`) ?? '';
    if (!this.storage.getItem(REFRESH_KEY)) return false;
    return this.refresh(username);
  }

  /** Forgets both tokens (memory, this tab's storage), stops the refresh timer; `reason` when the platform ended it. */
  signOut(reason: string | null = null): void {
    clearTimeout(this.refreshTimer);
    this.accessToken = null;
    this.signedIn = null;
    this.refreshing = null;
    this.endedReason = reason;
    this.storage.removeItem(REFRESH_KEY);
    this.storage.removeItem(`${REFRESH_KEY}.username`);
    this.notify();
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    let response = await this.send(method, path, options);
    if (response.status === 401 && this.storage.getItem(REFRESH_KEY)) {
      if (await this.refresh(this.signedIn?.username ?? ''))
        response = await this.send(method, path, options);
    }
    const body = await readBody(response);
    if (!response.ok) {
      const error = new ApiError(response.status, body, retryAfter(response));
      if (response.status === 401) this.signOut(error.message);
      throw error;
    }
    return body as T;
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (this.accessToken) headers.authorization = `Bearer ${this.accessToken}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.fetchImpl(`${path}${queryString(options.query)}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      throw new NetworkError(error);
    }
  }

  /** One refresh at a time; every caller waiting for it gets its outcome. */
  private refresh(username: string): Promise<boolean> {
    this.refreshing ??= this.refreshOnce(username).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refreshOnce(username: string): Promise<boolean> {
    const refreshToken = this.storage.getItem(REFRESH_KEY);
    if (!refreshToken) return false;
    try {
      const tokens = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
      this.accept(tokens, username);
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 401)) {
        this.signOut('Your session has ended (the platform no longer accepts it). Sign in again.');
        return false;
      }
      // Unreachable or busy: keep the session, the next request or timer tries again.
      if (this.signedIn) this.schedule(MIN_REFRESH_DELAY_MS * 2);
      return false;
    }
  }

  private async tokenRequest(body: Record<string, string>): Promise<TokenResponse> {
    let response: Response;
    try {
      response = await this.fetchImpl(TOKEN_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      throw new NetworkError(error);
    }
    const answer = await readBody(response);
    if (!response.ok) throw new ApiError(response.status, answer, retryAfter(response));
    return answer as TokenResponse;
  }

  private accept(tokens: TokenResponse, username: string): void {
    this.accessToken = tokens.access_token;
    this.storage.setItem(REFRESH_KEY, tokens.refresh_token);
    this.storage.setItem(`${REFRESH_KEY}.username`, username);
    this.signedIn = { claims: readTokenClaims(tokens.access_token), username };
    this.schedule(tokens.expires_in * 1000 - REFRESH_AHEAD_MS);
    this.notify();
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(
      () => void this.refresh(this.signedIn?.username ?? ''),
      Math.max(MIN_REFRESH_DELAY_MS, delayMs),
    );
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
