/** NATS subjects owned by assets-service. */
export const AssetsSubjects = {
  /**
   * request/reply: AuthenticateChargePointRequest → AuthenticateChargePointResponse. The ocpp-gateway asks it before
   * accepting a WebSocket upgrade; not_found / invalid_credentials otherwise.
   */
  authenticateChargePoint: 'assets.charge-point.authenticate.v1',
  /** durable event: ControllerDeletedEvent; the gateway closes that charge point's socket. */
  controllerDeleted: 'events.assets.controller-deleted.v1',
} as const;

export interface AuthenticateChargePointRequest {
  tenantUuid: string;
  ocppIdentity: string;
  /** HTTP Basic password; absent when the charge point sent none (only acceptable for security profile 0/3). */
  password?: string;
}

export interface AuthenticateChargePointResponse {
  controllerUuid: string;
  securityProfile: number;
}
