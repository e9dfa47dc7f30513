import { Injectable } from '@nestjs/common';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';

/** Statuses both OCPP versions know for an id tag / id token. */
export type IdTokenAuthorizationStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid';

export interface IdTokenToAuthorize {
  /** 1.6 idTag, 2.0.1 idToken.idToken. */
  idToken: string;
  /** 2.0.1 idToken.type (e.g. ISO14443, Central); 1.6 has none. */
  type: string | null;
}

/**
 * The one place to plug in who may charge (Authorize, StartTransaction, TransactionEvent with an idToken). Provide
 * another implementation under this class as token to change it; the platform has no authorization lists yet.
 */
@Injectable()
export class IdTokenAuthorizationPolicy {
  authorize(
    _connection: ChargePointConnection,
    _token: IdTokenToAuthorize,
  ): Promise<IdTokenAuthorizationStatus> {
    return Promise.resolve('Accepted');
  }
}
