import {
  loadWebhookServiceConfig,
  WEBHOOK_SERVICE_TUNING,
  type WebhookServiceConfig,
  type WebhookServiceTuning,
} from '../webhook-service.config.js';

/**
 * webhook-service's configuration in the integration tests: plain http to receivers on loopback allowed, logs silent
 * unless TEST_LOG_LEVEL says otherwise; `env` and `tuning` change what a test needs.
 */
export function webhookServiceTestConfig(
  natsUrl: string,
  databaseUrl: string,
  { env = {}, tuning = {} }: { env?: NodeJS.ProcessEnv; tuning?: Partial<WebhookServiceTuning> } = {},
): WebhookServiceConfig {
  return {
    ...loadWebhookServiceConfig({
      NATS_URL: natsUrl,
      DATABASE_URL: databaseUrl,
      HEALTH_PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8',
      ...env,
    }),
    tuning: { ...WEBHOOK_SERVICE_TUNING, ...tuning },
  };
}
