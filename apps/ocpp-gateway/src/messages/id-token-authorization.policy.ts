import { Injectable } from '@nestjs/common';
import type { AuthorizationMessageKind } from '@cpc/contracts';
import {
  type AuthorizationDecision,
  decide,
  findToken,
  idTagInfo,
  idTokenInfo,
  typeOfOcpp,
} from '../authorization/authorization-answers.js';
import { IdTokenCache } from '../authorization/id-token-cache.js';
import { TenantAuthorizationModes } from '../authorization/tenant-authorization-modes.js';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { AuthorizationDecisionPublisher } from '../events/authorization-decision.publisher.js';

export interface IdTokenToAuthorize {
  /** 1.6 idTag, 2.0.1 idToken.idToken. */
  idToken: string;
  /** 2.0.1 idToken.type (e.g. ISO14443, Central); 1.6 has none. */
  type: string | null;
}

/**
 * Who may charge (Authorize, StartTransaction, StopTransaction, TransactionEvent with an idToken): decided from the
 * tenant's id tokens in this instance's cache and the tenant's authorization mode, never waiting on a database.
 */
@Injectable()
export class IdTokenAuthorizationPolicy {
  constructor(
    private readonly cache: IdTokenCache,
    private readonly modes: TenantAuthorizationModes,
    private readonly decisions: AuthorizationDecisionPublisher,
  ) {}

  /** OCPP 1.6 idTagInfo for an idTag. */
  async idTagInfo(
    connection: ChargePointConnection,
    idTag: string,
    kind: AuthorizationMessageKind,
  ): Promise<object> {
    return idTagInfo(await this.decide(connection, { idToken: idTag, type: null }, kind));
  }

  /** OCPP 2.0.1 idTokenInfo for an IdTokenType. */
  async idTokenInfo(
    connection: ChargePointConnection,
    token: { idToken: string; type: string },
    kind: AuthorizationMessageKind,
  ): Promise<object> {
    return idTokenInfo(await this.decide(connection, token, kind));
  }

  private async decide(
    connection: ChargePointConnection,
    token: IdTokenToAuthorize,
    kind: AuthorizationMessageKind,
  ): Promise<AuthorizationDecision> {
    const tokens = await this.cache.tokensOf(connection.tenantUuid);
    const found = tokens ? findToken(tokens.withValue(token.idToken), token.type) : undefined;
    const decision = decide(found, {
      mode: this.modes.modeOf(connection.tenantUuid),
      locationUuid: connection.chargePoint.locationUuid,
      now: new Date(),
      tokensAvailable: tokens !== undefined,
    });
    this.decisions.record(connection.tenantUuid, {
      ...connection.ref,
      locationUuid: connection.chargePoint.locationUuid,
      idToken: token.idToken,
      type: found?.type ?? typeOfOcpp(token.type),
      tokenUuid: found?.uuid ?? null,
      result: decision.result,
      reason: decision.reason,
      messageKind: kind,
    });
    return decision;
  }
}
