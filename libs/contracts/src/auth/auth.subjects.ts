/** NATS subjects owned by auth-service. Versioned: a breaking payload change gets a new subject. */
export const AuthSubjects = {
  /** request/reply: IssueTokenRequest → TokenPair */
  issueToken: 'auth.token.issue.v1',
  /** request/reply: RefreshTokenRequest → TokenPair */
  refreshToken: 'auth.token.refresh.v1',
  /** request/reply: {} → SigningKeySet */
  listSigningKeys: 'auth.signing-keys.list.v1',
  /** request/reply: ResolveTenantRequest → ResolveTenantResponse (the ocpp-gateway maps the URL's tenant slug) */
  resolveTenant: 'auth.tenant.resolve.v1',
  /** broadcast (no queue group): SigningKeysChangedEvent, after a rotation or revocation */
  signingKeysChanged: 'auth.signing-keys.changed.v1',
  /** broadcast (no queue group): AccountsRevokedEvent, after a credential change (api-gateway applies it at once) */
  accountsRevoked: 'auth.accounts.revoked.v1',
  /**
   * broadcast (no queue group): TenantSettingsChangedEvent, after the admin CLI changed what the ocpp-gateway resolves
   * of a tenant (security profile 0, authorization mode); gateways apply it at once (their cache expiry otherwise).
   */
  tenantSettingsChanged: 'auth.tenant.settings-changed.v1',
  /** request/reply: ListRevocationsRequest → RevocationPage (api-gateway polls it, so a missed broadcast is caught) */
  listRevocations: 'auth.revocations.list.v1',
} as const;

export interface ResolveTenantRequest {
  slug: string;
}

/** not_found when the tenant does not exist or is disabled. */
export interface ResolveTenantResponse {
  uuid: string;
  slug: string;
  /**
   * Whether the tenant lets security-profile-0 charge points (no credentials at all) connect; off unless an operator
   * turned it on (admin CLI `tenant:set-profile-0`).
   */
  allowsSecurityProfile0: boolean;
  /** How the gateway answers the tenant's drivers' id tokens (admin CLI `tenant:set-authorization-mode`). */
  authorizationMode: AuthorizationMode;
}

/**
 * `strict`: only known tokens with status accepted, not expired, allowed at the charge point's location;
 * `accept_unknown`: unknown tokens accepted, known ones answered from their record. New tenants are strict.
 */
export const AUTHORIZATION_MODES = ['strict', 'accept_unknown'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** The tenant as auth.tenant.resolve.v1 answers it after the change. */
export type TenantSettingsChangedEvent = ResolveTenantResponse;
