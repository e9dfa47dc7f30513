import { DomainError } from '@cpc/errors';

/** The realm of the token endpoint's HTTP Basic challenge (the same as the bearer challenge's). */
export const BASIC_CHALLENGE = 'Basic realm="charging-platform-core"';

/**
 * Client credentials sent as HTTP Basic that do not authenticate: RFC 6749 §5.2 (invalid_client) wants a 401 whose
 * `WWW-Authenticate` names the scheme the client used, so the answer carries BASIC_CHALLENGE instead of the bearer one.
 */
export class ClientAuthenticationFailedError extends DomainError {
  readonly challenge = BASIC_CHALLENGE;

  /** `refusal`: what auth-service answered (a 401: wrong or revoked credentials), kept as it is but for the header. */
  constructor(refusal: DomainError) {
    super(refusal.code, refusal.message);
  }
}
