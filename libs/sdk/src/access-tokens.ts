import type { components } from './generated/openapi.js';
import type { Fetch } from './retrying-fetch.js';

export type TokenRequest = components['schemas']['TokenRequestDto'];
export type TokenResponse = components['schemas']['TokenResponseDto'];

/** The credentials of a user or an API key (`username` = public key, `password` = private key, `context: 'apikey'`). */
export type Credentials = Omit<TokenRequest, 'grant_type' | 'refresh_token'> &
  Required<Pick<TokenRequest, 'username' | 'password' | 'tenant'>>;

export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`the token endpoint answered ${status}: ${JSON.stringify(body)}`);
    this.name = 'TokenRequestError';
  }
}

interface HeldToken {
  accessToken: string;
  refreshToken: string;
  /** When to stop using it (ms since the epoch): its expiry less the refresh margin. */
  renewAt: number;
}

export interface AccessTokensOptions {
  baseUrl: string;
  credentials: Credentials;
  fetch: Fetch;
  /** Renew this long before the token expires (default 60 s), so no request goes out with a token about to lapse. */
  refreshMarginSeconds?: number;
  now?: () => number;
}

/**
 * Holds the access token: logs in on first use, renews it with the refresh token before it expires (logging in again
 * when the refresh is refused), and lets concurrent requests share one token request.
 */
export class AccessTokens {
  private held: HeldToken | undefined;
  private pending: Promise<HeldToken> | undefined;
  private readonly now: () => number;
  private readonly marginMs: number;

  constructor(private readonly options: AccessTokensOptions) {
    this.now = options.now ?? Date.now;
    this.marginMs = (options.refreshMarginSeconds ?? 60) * 1000;
  }

  /** A valid access token, obtaining or renewing one when needed. */
  async accessToken(): Promise<string> {
    if (this.held && this.now() < this.held.renewAt) return this.held.accessToken;
    this.pending ??= this.renew().finally(() => (this.pending = undefined));
    return (await this.pending).accessToken;
  }

  /** Drops the token (the API refused it), so the next request obtains a fresh one. */
  invalidate(rejected: string): void {
    if (this.held?.accessToken === rejected) this.held = { ...this.held, renewAt: 0 };
  }

  private async renew(): Promise<HeldToken> {
    const refreshToken = this.held?.refreshToken;
    if (refreshToken !== undefined) {
      try {
        return (this.held = await this.request({ grant_type: 'refresh_token', refresh_token: refreshToken }));
      } catch (error) {
        // A refresh token is single use and ends with its family's revocation: log in again instead.
        if (!(error instanceof TokenRequestError) || error.status >= 500) throw error;
      }
    }
    return (this.held = await this.request({ grant_type: 'password', ...this.options.credentials }));
  }

  private async request(body: TokenRequest): Promise<HeldToken> {
    const requestedAt = this.now();
    const response = await this.options.fetch(
      new Request(`${this.options.baseUrl}/api/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const answer = (await response.json().catch(() => undefined)) as TokenResponse | undefined;
    if (!response.ok || answer === undefined) throw new TokenRequestError(response.status, answer);
    return {
      accessToken: answer.access_token,
      refreshToken: answer.refresh_token,
      renewAt: requestedAt + Math.max(0, answer.expires_in * 1000 - this.marginMs),
    };
  }
}
