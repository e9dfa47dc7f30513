/** Injection token of the service's validated CommandServiceConfig. */
export const COMMAND_SERVICE_CONFIG = Symbol('COMMAND_SERVICE_CONFIG');
