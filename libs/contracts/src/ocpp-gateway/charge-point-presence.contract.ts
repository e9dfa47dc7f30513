import type { OcppProtocol } from '../charge-points/charge-point-events.js';

/**
 * Who is connected where and since when: a NATS key-value bucket the ocpp-gateway instances write and anyone may read
 * (key = controller uuid). The holding instance refreshes its entries well within OCPP_PRESENCE_TTL_MS and deletes an
 * entry when the socket closes; an entry whose `refreshedAt` is older than that belongs to a dead instance, and the
 * live instances remove it (publishing its disconnect). No entry means the charge point is not connected.
 */
export const CHARGE_POINT_PRESENCE_BUCKET = 'ocpp_presence';

export interface ChargePointPresence {
  controllerUuid: string;
  tenantUuid: string;
  ocppIdentity: string;
  protocol: OcppProtocol;
  /**
   * The security profile the socket authenticated with; a profile-0 handshake never replaces a socket of a higher one.
   * Absent in entries of gateways older than this field.
   */
  securityProfile?: number;
  /** The gateway instance holding the socket. */
  gatewayInstance: string;
  /** The WebSocket connection (the same id as in the connected/disconnected events). */
  connectionId: string;
  /** ISO 8601. */
  connectedAt: string;
  /** ISO 8601; the last time the holding instance confirmed the entry. */
  refreshedAt: string;
}
