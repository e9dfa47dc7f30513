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

export interface IssueTokenRequest extends TokenClientContext {
  tenant: string;
  username: string;
  password: string;
  context?: EntityType;
  uuid?: string;
}

export interface RefreshTokenRequest extends TokenClientContext {
  refreshToken: string;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

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
