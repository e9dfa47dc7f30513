import { Inject, Injectable } from '@nestjs/common';
import {
  type AuthenticateChargePointRequest,
  type AuthenticateChargePointResponse,
  AssetsSubjects,
  ErrorCode,
  type OcppProtocol,
  type ResolveTenantResponse,
} from '@cpc/contracts';
import { describeError, DomainError } from '@cpc/errors';
import { ServiceClient } from '@cpc/nats';
import type { AuthenticatedChargePoint } from '../connections/charge-point-connection.js';
import { SecurityProfileTakeoverGuard } from '../connections/security-profile-takeover.guard.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { OcppHandshake } from '../ocpp-rpc/ocpp-rpc.js';
import { HandshakeRefusedError } from './handshake-refused.error.js';
import { parseOcppConnectionPath } from './ocpp-connection-path.js';
import { TenantSlugResolver } from './tenant-slug.resolver.js';
import { readTransportSecurity, type TransportSecurity } from './transport-security.js';

export const SUPPORTED_PROTOCOLS: readonly OcppProtocol[] = ['ocpp2.0.1', 'ocpp1.6'];

export interface AcceptedHandshake {
  chargePoint: AuthenticatedChargePoint;
  protocol: OcppProtocol;
}

/**
 * Decides whether an upgrade becomes a charge point connection: an OCPP path, a protocol both sides speak, a known
 * tenant, a registered controller whose credentials match, and the transport its security profile demands. Every
 * credential problem is the same 401. assets-service counts failed attempts per identity and client address (shared
 * by every gateway instance) and answers rate_limited (429) once they are used up.
 */
@Injectable()
export class ChargePointHandshakeAuthenticator {
  constructor(
    private readonly tenants: TenantSlugResolver,
    private readonly services: ServiceClient,
    private readonly takeoverGuard: SecurityProfileTakeoverGuard,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  async authenticate(handshake: OcppHandshake): Promise<AcceptedHandshake> {
    const path = parseOcppConnectionPath(handshake.request.url);
    if (!path || path.identity !== handshake.identity)
      throw new HandshakeRefusedError(404, 'not an OCPP endpoint');
    // The charge point lists its protocols in order of preference, and its preference wins.
    const protocol = [...handshake.protocols].find((offered): offered is OcppProtocol =>
      SUPPORTED_PROTOCOLS.includes(offered as OcppProtocol),
    );
    if (!protocol)
      throw new HandshakeRefusedError(
        400,
        `no supported subprotocol in ${[...handshake.protocols].join(',') || 'none'}`,
      );

    const transport = readTransportSecurity(handshake.request, this.config);
    const chargePoint = await this.verifyCredentials(
      path.tenantSlug,
      path.identity,
      handshake.password,
      transport,
    );
    return { chargePoint, protocol };
  }

  private async verifyCredentials(
    tenantSlug: string,
    identity: string,
    password: Buffer | undefined,
    transport: TransportSecurity,
  ): Promise<AuthenticatedChargePoint> {
    const tenant = await this.unlessUnavailable(this.tenants.resolve(tenantSlug));
    if (!tenant) throw new HandshakeRefusedError(401, `unknown tenant ${tenantSlug}`);
    const request: AuthenticateChargePointRequest = {
      tenantUuid: tenant.uuid,
      ocppIdentity: identity,
      remoteAddress: transport.remoteAddress,
    };
    if (password !== undefined) request.password = password.toString('utf8');
    let controller: AuthenticateChargePointResponse;
    try {
      controller = await this.services.request<
        AuthenticateChargePointResponse,
        AuthenticateChargePointRequest
      >(AssetsSubjects.authenticateChargePoint, request);
    } catch (error) {
      if (
        error instanceof DomainError &&
        (error.code === ErrorCode.InvalidCredentials || error.code === ErrorCode.NotFound)
      ) {
        throw new HandshakeRefusedError(401, `${tenantSlug}/${identity}: ${error.message}`);
      }
      if (error instanceof DomainError && error.code === ErrorCode.RateLimited) {
        throw new HandshakeRefusedError(
          429,
          `${tenantSlug}/${identity} from ${transport.remoteAddress}: ${error.message}`,
        );
      }
      throw this.unavailable(error);
    }
    this.requireTransportOfProfile(controller, tenant.slug, identity, transport);
    const presenceRevisionSeen =
      controller.securityProfile === 0
        ? await this.admitWithoutCredentials(tenant, controller, identity)
        : undefined;
    return {
      tenantUuid: tenant.uuid,
      controllerUuid: controller.controllerUuid,
      ocppIdentity: controller.ocppIdentity,
      securityProfile: controller.securityProfile,
      credentialsVersion: controller.credentialsVersion,
      locationUuid: controller.locationUuid,
      ...(presenceRevisionSeen === undefined ? {} : { presenceRevisionSeen }),
    };
  }

  /**
   * Security profile 0 proves nothing, so it is taken only where both the gateway (OCPP_ALLOW_SECURITY_PROFILE_0) and
   * the tenant allow it, and never to replace a socket that authenticated with a higher profile. Returns the revision
   * of the presence key it read, for the connection's compare-and-set write.
   */
  private async admitWithoutCredentials(
    tenant: ResolveTenantResponse,
    controller: AuthenticateChargePointResponse,
    identity: string,
  ): Promise<number | undefined> {
    if (!this.config.allowSecurityProfile0) {
      throw new HandshakeRefusedError(401, `${identity}: security profile 0 is switched off on this gateway`);
    }
    if (tenant.allowsSecurityProfile0 !== true) {
      throw new HandshakeRefusedError(
        401,
        `${identity}: tenant ${tenant.slug} does not allow security profile 0`,
      );
    }
    const { outranking, presenceRevision } = await this.unlessUnavailable(
      this.takeoverGuard.check(controller.controllerUuid, controller.securityProfile),
    );
    if (outranking !== undefined) {
      throw new HandshakeRefusedError(
        401,
        `${identity}: a socket that authenticated with security profile ${outranking} is connected; profile 0 cannot replace it`,
      );
    }
    return presenceRevision;
  }

  /**
   * Profile 2 needs TLS; profile 3 needs a verified client certificate issued to this very identity of this very
   * tenant: CN = identity and O = tenant slug (identities are unique per tenant only).
   */
  private requireTransportOfProfile(
    controller: AuthenticateChargePointResponse,
    tenantSlug: string,
    identity: string,
    transport: TransportSecurity,
  ): void {
    if (controller.securityProfile >= 2 && !transport.tls) {
      throw new HandshakeRefusedError(
        401,
        `${identity}: security profile ${controller.securityProfile} needs TLS`,
      );
    }
    const certificate = transport.verifiedClientCertificate;
    if (
      controller.securityProfile === 3 &&
      (certificate?.commonName?.toLowerCase() !== controller.ocppIdentity.toLowerCase() ||
        certificate.organization?.toLowerCase() !== tenantSlug.toLowerCase())
    ) {
      throw new HandshakeRefusedError(
        401,
        `${identity}: security profile 3 needs a verified client certificate with CN=${controller.ocppIdentity}, O=${tenantSlug}; got ${certificate ? `CN=${certificate.commonName ?? '?'}, O=${certificate.organization ?? '?'}` : 'none'}`,
      );
    }
  }

  private async unlessUnavailable<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown): HandshakeRefusedError {
    return new HandshakeRefusedError(503, `cannot verify the charge point now: ${describeError(error)}`);
  }
}
