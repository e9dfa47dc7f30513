import type { OcppProtocol } from '@cpc/contracts';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';

/**
 * Answers some of the calls a charge point makes. Payloads arrive already validated against the official schema of
 * the connection's protocol (ocpp-rpc strict mode), so handlers may read them as the schema says; what a handler
 * returns is validated the same way before it leaves. Throwing makes the charge point receive a CALLERROR.
 */
export interface ChargePointMessageHandler {
  /** The actions this handler answers, per protocol. */
  readonly actions: Partial<Record<OcppProtocol, readonly string[]>>;
  handle(connection: ChargePointConnection, action: string, payload: unknown): Promise<object>;
}

/** Multi-provider token collecting every ChargePointMessageHandler of the gateway. */
export const CHARGE_POINT_MESSAGE_HANDLERS = Symbol('CHARGE_POINT_MESSAGE_HANDLERS');
