import type { EventEnvelope } from '../events/event-stream.js';

/**
 * NATS subjects owned by assets-service. Request/reply subjects take a `TenantScopedRequest<payload>` (principal.ts)
 * unless said otherwise; the service scopes every query by `principal.tenantUuid` and answers not_found for another
 * tenant's asset exactly as for a missing one.
 */
export const AssetsSubjects = {
  /**
   * request/reply: AuthenticateChargePointRequest → AuthenticateChargePointResponse. The ocpp-gateway asks it before
   * accepting a WebSocket upgrade; invalid_credentials otherwise (unknown identity and wrong password alike),
   * rate_limited once the failures of that identity (from that address, or from everywhere) are used up, and
   * service_unavailable when the password checks it can run at once are all taken.
   */
  authenticateChargePoint: 'assets.charge-point.authenticate.v1',
  /** durable event: ControllerDeletedEvent; the gateway closes that charge point's socket. */
  controllerDeleted: 'events.assets.controller-deleted.v1',
  /**
   * durable event: ControllerCredentialsChangedEvent, after a change of a controller's password, security profile or
   * OCPP identity; the gateway closes every socket that authenticated with an older credentials version.
   */
  controllerCredentialsChanged: 'events.assets.controller-credentials-changed.v1',

  /** CreateLocationPayload → LocationView */
  createLocation: 'assets.location.create.v1',
  /** CursorListAssetsPayload<LocationFilter> → CursorAssetPage<LocationView> */
  listLocations: 'assets.location.list.v1',
  /** AssetUuidPayload → LocationView */
  getLocation: 'assets.location.get.v1',
  /** UpdateAssetPayload<UpdateLocationPayload> → LocationView */
  updateLocation: 'assets.location.update.v1',
  /** AssetUuidPayload → {}; validation_failed (errorKey has_dependents) while controllers are at the location */
  deleteLocation: 'assets.location.delete.v1',

  /** CreateFacilityTypePayload → FacilityTypeView */
  createFacilityType: 'assets.facility-type.create.v1',
  /** ListAssetsPayload<FacilityTypeFilter> → AssetPage<FacilityTypeView> */
  listFacilityTypes: 'assets.facility-type.list.v1',

  /** CreateControllerPayload → ControllerView */
  createController: 'assets.controller.create.v1',
  /** CursorListAssetsPayload<ControllerFilter> → CursorAssetPage<ControllerView> */
  listControllers: 'assets.controller.list.v1',
  /** AssetUuidPayload → ControllerView */
  getController: 'assets.controller.get.v1',
  /**
   * request/reply, not tenant-scoped by a principal: ControllersExistRequest → ControllersExistResponse. Whether each
   * controller exists for its tenant; command-service resolves the targets of the commands created in one moment with
   * one request.
   */
  controllersExist: 'assets.controller.exist.v1',
  /**
   * ListControllerConfigurationPayload → AssetPage<ControllerConfigurationEntryView>; not_found for a controller
   * the tenant does not have.
   */
  listControllerConfiguration: 'assets.controller.configuration.list.v1',
  /**
   * request/reply, internal (command-service): ControllerSettingLimitsPayload → ControllerSettingLimits, the limits
   * the controller's stored configuration reports for a change_configuration; not_found for another tenant's.
   */
  controllerSettingLimits: 'assets.controller.setting-limits.v1',
  /** UpdateAssetPayload<UpdateControllerPayload> → ControllerView */
  updateController: 'assets.controller.update.v1',
  /** AssetUuidPayload → {}; removes its plugs and sensors and publishes controllerDeleted */
  deleteController: 'assets.controller.delete.v1',
  /** ListControllerEventsPayload → AssetPage<ControllerEventView>, newest first */
  listControllerEvents: 'assets.controller.events.list.v1',

  /** CreatePlugPayload → PlugView */
  createPlug: 'assets.plug.create.v1',
  /** CursorListAssetsPayload<PlugFilter> → CursorAssetPage<PlugView> */
  listPlugs: 'assets.plug.list.v1',
  /** AssetUuidPayload → PlugView */
  getPlug: 'assets.plug.get.v1',
  /** UpdateAssetPayload<UpdatePlugPayload> → PlugView */
  updatePlug: 'assets.plug.update.v1',
  /** AssetUuidPayload → {} */
  deletePlug: 'assets.plug.delete.v1',

  /** CreateSensorPayload → SensorView */
  createSensor: 'assets.sensor.create.v1',
  /** CursorListAssetsPayload<SensorFilter> → CursorAssetPage<SensorView> */
  listSensors: 'assets.sensor.list.v1',
  /** AssetUuidPayload → SensorView */
  getSensor: 'assets.sensor.get.v1',
  /** UpdateAssetPayload<UpdateSensorPayload> → SensorView */
  updateSensor: 'assets.sensor.update.v1',
  /** AssetUuidPayload → {} */
  deleteSensor: 'assets.sensor.delete.v1',
} as const;

/** Not tenant-scoped by a principal: the ocpp-gateway resolved the tenant from the connection URL. */
export interface AuthenticateChargePointRequest {
  tenantUuid: string;
  ocppIdentity: string;
  /** HTTP Basic password; absent when the charge point sent none (only acceptable for security profile 0/3). */
  password?: string;
  /**
   * The charge point's address as the gateway established it (TCP peer, or X-Forwarded-For of a trusted proxy):
   * failed attempts are counted per identity and address. Absent: counted as one unknown address.
   */
  remoteAddress?: string;
}

export interface AuthenticateChargePointResponse {
  controllerUuid: string;
  /** The identity as registered (identities compare case-insensitively). */
  ocppIdentity: string;
  securityProfile: number;
  /**
   * Grows with every change of the controller's password, security profile or identity. The gateway keeps it with
   * the socket: a ControllerCredentialsChangedEvent with a higher version closes that socket, even one whose handshake
   * was answered before the change committed and opened after the event arrived.
   */
  credentialsVersion: number;
  /** The controller's location: id tokens restricted to other locations are not accepted at this charge point. */
  locationUuid: string;
}

/** Each lookup names its tenant: the caller took it from the principal of the request it serves. */
export interface ControllersExistRequest {
  controllers: { tenantUuid: string; uuid: string }[];
}

export interface ControllersExistResponse {
  /** One per requested controller, in the request's order; false for another tenant's, as for a missing one. */
  exists: boolean[];
}

export type ControllerDeletedEvent = EventEnvelope<{
  controllerUuid: string;
  ocppIdentity: string;
  locationUuid: string;
  deletedAt: string;
}>;

/** The credential fields of a controller whose change closes its open socket. */
export const CONTROLLER_CREDENTIAL_FIELDS = ['ocpp_password', 'security_profile', 'ocpp_identity'] as const;
export type ControllerCredentialField = (typeof CONTROLLER_CREDENTIAL_FIELDS)[number];

export type ControllerCredentialsChangedEvent = EventEnvelope<{
  controllerUuid: string;
  /** The identity after the change. */
  ocppIdentity: string;
  /** The version the change produced; sockets authenticated with a lower one are closed. */
  credentialsVersion: number;
  changed: ControllerCredentialField[];
  changedAt: string;
}>;
