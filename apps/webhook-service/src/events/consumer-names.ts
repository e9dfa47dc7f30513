/** The durable consumers of webhook-service (durable names cannot hold dots); both are listed in NATS_USERS. */
export const CHARGE_POINT_EVENTS_CONSUMER = 'webhook-service_charge-point-events';
export const COMMAND_STATUS_CONSUMER = 'webhook-service_command-status';
