import { Injectable } from '@nestjs/common';
import {
  type AuthorizationDecision,
  decide,
  findToken,
  idTagInfo,
  idTokenInfo,
} from '../authorization/authorization-answers.js';
import { IdTokenCache } from '../authorization/id-token-cache.js';
import { TenantAuthorizationModes } from '../authorization/tenant-authorization-modes.js';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';

/** The message that carried the token. */
export type AuthorizationMessageKind =
  'authorize' | 'start_transaction' | 'stop_transaction' | 'transaction_event';

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
  ) {}

  /** OCPP 1.6 idTagInfo for an idTag. */
  async idTagInfo(
    connection: ChargePointConnection,
    idTag: string,
    _kind: AuthorizationMessageKind,
  ): Promise<object> {
    return idTagInfo(await this.decide(connection, { idToken: idTag, type: null }));
  }

  /** OCPP 2.0.1 idTokenInfo for an IdTokenType. */
  async idTokenInfo(
    connection: ChargePointConnection,
    token: { idToken: string; type: string },
    _kind: AuthorizationMessageKind,
  ): Promise<object> {
    return idTokenInfo(await this.decide(connection, token));
  }

  private async decide(
    connection: ChargePointConnection,
    token: IdTokenToAuthorize,
  ): Promise<AuthorizationDecision> {
    const tokens = await this.cache.tokensOf(connection.tenantUuid);
    const found = tokens ? findToken(tokens.withValue(token.idToken), token.type) : undefined;
    return decide(found, {
      mode: this.modes.modeOf(connection.tenantUuid),
      locationUuid: connection.chargePoint.locationUuid,
      now: new Date(),
      tokensAvailable: tokens !== undefined,
    });
  }
}
