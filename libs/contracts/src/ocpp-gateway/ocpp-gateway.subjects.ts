/**
 * Core NATS subjects of the ocpp-gateway (not JetStream: they address whichever instance holds a socket right now).
 * Every subject ends with the controller uuid, so an instance can subscribe to exactly the charge points it holds.
 */
export const OcppGatewaySubjects = {
  /**
   * request/reply: OcppCallRequest → OcppCallReply (plain JSON, not Nest's envelope). The instance holding the
   * controller's socket subscribes while it is connected; "no responders" means the charge point is offline.
   */
  call: (controllerUuid: string): string => `ocpp.call.v1.${controllerUuid}`,
  /**
   * broadcast: ConnectionOpenedNotice. An instance that accepted a socket tells the others, so one that still holds
   * an older socket of the same controller closes it (a second connection replaces the first, on any instance).
   * Instances hear them all with one subscription, `connectionOpened('*')`. command-service instances hear them too:
   * a delivery that waits for a reply from the controller's old connection is asked again at once.
   */
  connectionOpened: (controllerUuid: string): string => `ocpp.connection.opened.v1.${controllerUuid}`,
} as const;

export interface ConnectionOpenedNotice {
  controllerUuid: string;
  connectionId: string;
  gatewayInstance: string;
  /**
   * The KV revision of the presence entry the connection wrote (CHARGE_POINT_PRESENCE_BUCKET): the order of a
   * controller's connections, one sequence for all instances. Of two, the higher one is newer and stays. Optional for
   * a rolling deploy: instances before it send none (and ignore it); see ConnectionTakeoverChannel for how such a
   * notice is judged.
   */
  presenceRevision?: number;
  /**
   * The security profile the connection authenticated with: a profile-0 connection never replaces one of a higher
   * profile. Optional for a rolling deploy: a notice without it replaces as before.
   */
  securityProfile?: number;
}
