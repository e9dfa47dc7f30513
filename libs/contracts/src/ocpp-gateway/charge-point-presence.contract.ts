import type { OcppProtocol } from '../charge-points/charge-point-events.js';

/**
 * Who is connected where and since when: a NATS key-value bucket the ocpp-gateway instances write and anyone may read
 * (key = controller uuid). The holding instance writes an entry when a socket is accepted and deletes it when the
 * socket closes; entries are not refreshed. Whether the instance is alive is kept once per instance, in
 * GATEWAY_INSTANCES_BUCKET: an entry counts only while its instance's state there is live and of the same
 * incarnation. The live instances remove the entries of a dead one (publishing their disconnects). No entry means the
 * charge point is not connected.
 */
export const CHARGE_POINT_PRESENCE_BUCKET = 'ocpp_connections';

/**
 * One key per ocpp-gateway instance (the instance id, base64url-encoded), refreshed by the instance every third of
 * OCPP_PRESENCE_TTL_MS: one write per instance, whatever the number of its sockets.
 */
export const GATEWAY_INSTANCES_BUCKET = 'ocpp_gateway_instances';

export interface GatewayInstanceState {
  /** Random per process start: an entry of an earlier process under the same instance id is not this one's. */
  incarnation: string;
  /** ISO 8601; the last time the instance confirmed it is alive. */
  refreshedAt: string;
  /** Set by the instance that found it dead, before it removes the dead instance's entries. */
  lost?: true;
}

export interface ChargePointPresence {
  controllerUuid: string;
  tenantUuid: string;
  ocppIdentity: string;
  protocol: OcppProtocol;
  /** The security profile the socket authenticated with; a profile-0 handshake never replaces a socket of a higher one. */
  securityProfile?: number;
  /** The gateway instance holding the socket. */
  gatewayInstance: string;
  /** The incarnation of that instance (GatewayInstanceState) that accepted the socket. */
  incarnation: string;
  /** The WebSocket connection (the same id as in the connected/disconnected events). */
  connectionId: string;
  /** ISO 8601. */
  connectedAt: string;
}
