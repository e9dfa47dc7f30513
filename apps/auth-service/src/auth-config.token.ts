/** Injection token of the validated AuthServiceConfig. */
export const AUTH_CONFIG = Symbol('AUTH_CONFIG');
