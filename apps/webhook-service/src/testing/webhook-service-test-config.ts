import {
  loadWebhookServiceConfig,
  WEBHOOK_SERVICE_TUNING,
  type WebhookServiceConfig,
  type WebhookServiceTuning,
} from '../webhook-service.config.js';

/**
 * webhook-service's configuration in its integration specs: on the rig's NATS and database, http receivers on loopback
 * allowed, quiet unless TEST_LOG_LEVEL says otherwise; `env` and `tuning` change what a spec needs.
 */
export function webhookServiceTestConfig(
  urls: { natsUrl: string; databaseUrl: string },
  env: Record<string, string> = {},
  tuning: Partial<WebhookServiceTuning> = {},
): WebhookServiceConfig {
  return {
    ...loadWebhookServiceConfig({
      NATS_URL: urls.natsUrl,
      DATABASE_URL: urls.databaseUrl,
      HEALTH_PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8',
      ...env,
    }),
    tuning: { ...WEBHOOK_SERVICE_TUNING, ...tuning },
  };
}
