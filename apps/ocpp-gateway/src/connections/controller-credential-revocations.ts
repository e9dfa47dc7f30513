import { Inject, Injectable } from '@nestjs/common';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { AuthenticatedChargePoint, GatewayCloseCause } from './charge-point-connection.js';

/** A deleted controller: no credentials version of it is valid any more. */
export const ALL_CREDENTIALS_VERSIONS = Number.MAX_SAFE_INTEGER;

interface Revocation {
  /** Sockets that authenticated with a lower credentials version are refused. */
  belowVersion: number;
  cause: Extract<GatewayCloseCause, 'controller_deleted' | 'credentials_changed'>;
  /** performance.now() when it was recorded. */
  recordedAt: number;
}

/**
 * The credential changes (and deletions) this instance heard of lately. A handshake whose credentials were checked
 * just before a change committed can open its socket after the change event arrived, when there was no socket yet to
 * close; the lifecycle asks here when a socket opens and refuses it. Such a handshake is in flight at most one NATS
 * request timeout (the check) plus the moment of the upgrade, so a revocation is remembered that long and a minute more.
 */
@Injectable()
export class ControllerCredentialRevocations {
  private readonly revoked = new Map<string, Revocation>();
  private readonly rememberMs: number;

  constructor(@Inject(OCPP_GATEWAY_CONFIG) config: OcppGatewayConfig) {
    this.rememberMs = config.natsRequestTimeoutMs + config.tuning.credentialRevocationMarginMs;
  }

  /** Idempotent: a repeated or older event never lowers what is revoked. */
  revoke(controllerUuid: string, belowVersion: number, cause: Revocation['cause']): void {
    const now = performance.now();
    const known = this.revoked.get(controllerUuid);
    this.revoked.delete(controllerUuid);
    const revocation =
      known && known.belowVersion >= belowVersion
        ? { ...known, recordedAt: now }
        : { belowVersion, cause, recordedAt: now };
    this.revoked.set(controllerUuid, revocation);
    this.forgetOlderThan(now - this.rememberMs);
  }

  /** Why a socket that authenticated as `chargePoint` must be closed, or undefined when its credentials still hold. */
  refusalOf(chargePoint: AuthenticatedChargePoint): Revocation['cause'] | undefined {
    const revocation = this.revoked.get(chargePoint.controllerUuid);
    if (!revocation || performance.now() - revocation.recordedAt > this.rememberMs) return undefined;
    return chargePoint.credentialsVersion < revocation.belowVersion ? revocation.cause : undefined;
  }

  /** The map is in recording order (revoke re-inserts), so the old entries are at its front. */
  private forgetOlderThan(cutoff: number): void {
    for (const [controllerUuid, revocation] of this.revoked) {
      if (revocation.recordedAt >= cutoff) return;
      this.revoked.delete(controllerUuid);
    }
  }
}
