/** Account kinds a token can be issued for; `context` in the token request names one of them. */
export const ENTITY_TYPES = ['apikey', 'contract', 'user', 'client', 'employee', 'employer'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Entity types a user account can have (an API key is always `apikey`). */
export const USER_ENTITY_TYPES = ['employer', 'employee', 'contract', 'user', 'client'] as const;
export type UserEntityType = (typeof USER_ENTITY_TYPES)[number];

/**
 * The HTTP client's address as the api-gateway sees it (the TCP peer, or X-Forwarded-For only when that peer is a
 * trusted proxy). auth-service counts token requests and failed logins by it, in its database, so every replica
 * shares the same limits.
 */
export interface TokenClientContext {
  clientAddress: string;
}

/**
 * A login with a username and password: the spec's form and RFC 6749's `password` grant, or the `client_credentials`
 * grant, whose client_id and client_secret are an API key's public and private key (context `apikey`).
 */
export interface IssueTokenRequest extends TokenClientContext {
  /** The tenant's slug; absent only with the `client_credentials` grant, where the API key names its tenant. */
  tenant?: string;
  username: string;
  password: string;
  context?: EntityType;
  /** The tenant's own uuid, embedded as claim `data.uuid`; another uuid is refused (400 on `uuid`). */
  uuid?: string;
  /** RFC 6749 `scope`: the permissions the token is to carry, each covered by the account's role; absent: all. */
  scope?: string[];
}

export interface RefreshTokenRequest extends TokenClientContext {
  refreshToken: string;
  /** Narrows the new pair further (RFC 6749 §6); absent: the scope of the login the refresh token descends from. */
  scope?: string[];
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
  /** RFC 6749 §5.1: the permissions granted, space-separated; present when the request asked for a `scope`. */
  scope?: string;
}

/** errorKey (on `scope`, 400) of a token request asking for a permission its role does not hold: RFC 6749's name. */
export const INVALID_SCOPE_ERROR_KEY = 'invalid_scope';

/** Claims of an access token (RS256, `kid` in the header). */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  sub_type: EntityType;
  tenant: string;
  tenant_uuid: string;
  data?: { uuid: string };
  scope: string;
  iat: number;
  exp: number;
  jti: string;
}

export interface SigningPublicKey {
  kid: string;
  alg: 'RS256';
  publicKeyPem: string;
}

export interface SigningKeySet {
  keys: SigningPublicKey[];
}

export interface SigningKeysChangedEvent {
  reason: 'rotated' | 'revoked';
  kid: string;
}
