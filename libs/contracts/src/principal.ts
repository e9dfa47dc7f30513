/**
 * Who is calling, as the api-gateway established it from a verified access token. Services scope every query by
 * `tenantUuid` from here; it is never taken from a request body or path.
 */
export interface Principal {
  tenantUuid: string;
  tenantSlug: string;
  subject: string;
  subjectType: string;
  scopes: string[];
}

/** Envelope of every request the api-gateway sends on behalf of a caller. */
export interface TenantScopedRequest<TPayload> {
  principal: Principal;
  payload: TPayload;
}
