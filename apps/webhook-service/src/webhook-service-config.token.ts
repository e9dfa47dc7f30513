/** Injection token of WebhookServiceConfig. */
export const WEBHOOK_SERVICE_CONFIG = Symbol('WEBHOOK_SERVICE_CONFIG');
