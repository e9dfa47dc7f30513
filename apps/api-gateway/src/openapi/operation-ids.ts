/**
 * The `operationId` of every operation, by controller class and method: the names client generators give the SDK's
 * methods. Explicit, so that renaming a handler does not rename a client's method; a route without an entry stops
 * the document from being built.
 */
export const OPERATION_IDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  OAuthTokenController: { token: 'issueToken' },
  LocationsController: {
    create: 'createLocation',
    list: 'listLocations',
    get: 'getLocation',
    update: 'updateLocation',
    delete: 'deleteLocation',
  },
  FacilityTypesController: { create: 'createFacilityType', list: 'listFacilityTypes' },
  ControllersController: {
    create: 'createController',
    list: 'listControllers',
    get: 'getController',
    update: 'updateController',
    delete: 'deleteController',
    events: 'listControllerEvents',
    configuration: 'getControllerConfiguration',
  },
  PlugsController: {
    create: 'createPlug',
    list: 'listPlugs',
    get: 'getPlug',
    update: 'updatePlug',
    delete: 'deletePlug',
  },
  SensorsController: {
    create: 'createSensor',
    list: 'listSensors',
    get: 'getSensor',
    update: 'updateSensor',
    delete: 'deleteSensor',
  },
  IdTokensController: {
    create: 'createIdToken',
    list: 'listIdTokens',
    get: 'getIdToken',
    update: 'updateIdToken',
    delete: 'deleteIdToken',
  },
  IdTokenImportController: { import: 'importIdTokens' },
  AuthorizationDecisionsController: { list: 'listAuthorizationDecisions' },
  ChargingSessionsController: {
    list: 'listChargingSessions',
    get: 'getChargingSession',
    meterValues: 'listChargingSessionMeterValues',
  },
  ReservationsController: { list: 'listReservations', get: 'getReservation' },
  CommandsController: { create: 'createCommand', list: 'listCommands', get: 'getCommand' },
  UsersController: {
    create: 'createUser',
    list: 'listUsers',
    get: 'getUser',
    update: 'updateUser',
    delete: 'deleteUser',
  },
  RolesController: {
    create: 'createRole',
    list: 'listRoles',
    get: 'getRole',
    update: 'updateRole',
    delete: 'deleteRole',
  },
  ApiKeysController: {
    create: 'createApiKey',
    list: 'listApiKeys',
    get: 'getApiKey',
    update: 'updateApiKey',
    delete: 'revokeApiKey',
  },
  AuditEventsController: { list: 'listAuditEvents' },
  WebhooksController: {
    create: 'createWebhook',
    list: 'listWebhooks',
    get: 'getWebhook',
    update: 'updateWebhook',
    delete: 'deleteWebhook',
    rotateSecret: 'rotateWebhookSecret',
    test: 'testWebhook',
    listDeliveries: 'listWebhookDeliveries',
    retryDelivery: 'retryWebhookDelivery',
  },
};

export function operationIdFor(controllerKey: string, methodKey: string): string {
  const operationId = OPERATION_IDS[controllerKey]?.[methodKey];
  if (!operationId) {
    throw new Error(
      `${controllerKey}.${methodKey} has no operationId: add one to apps/api-gateway/src/openapi/operation-ids.ts`,
    );
  }
  return operationId;
}
