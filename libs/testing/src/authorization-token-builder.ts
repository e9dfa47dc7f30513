import type { AuthorizationToken } from '@cpc/contracts';

/** A token as assets-service serves it to the gateway: accepted, no expiry, no group, everywhere, unless overridden. */
export const authorizationToken = (overrides: Partial<AuthorizationToken> = {}): AuthorizationToken => ({
  uuid: '33333333-3333-4333-8333-333333333333',
  idToken: 'CARD-1',
  type: 'iso14443',
  status: 'accepted',
  expiresAt: null,
  group: null,
  allowedLocationUuids: [],
  ...overrides,
});
