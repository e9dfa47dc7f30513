import { Injectable } from '@nestjs/common';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';
import { IdTokenAuthorizationPolicy } from './id-token-authorization.policy.js';

interface Authorize16 {
  idTag: string;
}

interface Authorize201 {
  idToken: { idToken: string; type: string };
}

@Injectable()
export class AuthorizeHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp1.6': ['Authorize'], 'ocpp2.0.1': ['Authorize'] } as const;

  constructor(private readonly policy: IdTokenAuthorizationPolicy) {}

  async handle(connection: ChargePointConnection, _action: string, payload: unknown): Promise<object> {
    if (connection.protocol === 'ocpp1.6') {
      const { idTag } = payload as Authorize16;
      return { idTagInfo: await this.policy.idTagInfo(connection, idTag, 'authorize') };
    }
    const { idToken } = payload as Authorize201;
    return { idTokenInfo: await this.policy.idTokenInfo(connection, idToken, 'authorize') };
  }
}
