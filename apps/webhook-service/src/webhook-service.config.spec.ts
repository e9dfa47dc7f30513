import { loadWebhookServiceConfig, WEBHOOK_SERVICE_TUNING } from './webhook-service.config.js';

describe('loadWebhookServiceConfig', () => {
  it('has safe defaults: https only, nothing private allowed, a day of rotation grace', () => {
    const config = loadWebhookServiceConfig({});
    expect(config).toMatchObject({
      allowHttpTargets: false,
      allowedTargetRanges: [],
      secretRotationGraceSeconds: 86_400,
      connectTimeoutMs: 3000,
      responseTimeoutMs: 10_000,
      healthPort: 3105,
    });
  });

  it('refuses http targets and a missing encryption secret in production, and bad ranges anywhere', () => {
    expect(() =>
      loadWebhookServiceConfig({
        NODE_ENV: 'production',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8, 10.0.0.0/33,nonsense',
      }),
    ).toThrow(
      /WEBHOOK_ALLOW_HTTP cannot be true in production[\s\S]*"10\.0\.0\.0\/33" is not a CIDR range[\s\S]*"nonsense"[\s\S]*WEBHOOK_SECRET_ENCRYPTION_SECRET is required/,
    );
  });

  it('refuses timeouts that an attempt could not end within while its delivery is leased', () => {
    expect(() =>
      loadWebhookServiceConfig({ WEBHOOK_CONNECT_TIMEOUT_MS: '10000', WEBHOOK_RESPONSE_TIMEOUT_MS: '20000' }),
    ).toThrow(/WEBHOOK_CONNECT_TIMEOUT_MS \+ WEBHOOK_RESPONSE_TIMEOUT_MS must be under 30000 ms/);
    expect(
      loadWebhookServiceConfig({ WEBHOOK_CONNECT_TIMEOUT_MS: '5000', WEBHOOK_RESPONSE_TIMEOUT_MS: '20000' }),
    ).toMatchObject({ connectTimeoutMs: 5000, responseTimeoutMs: 20_000 });
  });

  it('reads the allow-list', () => {
    const config = loadWebhookServiceConfig({ WEBHOOK_ALLOWED_TARGET_RANGES: '127.0.0.0/8, ::1/128' });
    expect(config.allowedTargetRanges).toEqual(['127.0.0.0/8', '::1/128']);
  });

  it('pins the tuning', () => {
    expect(WEBHOOK_SERVICE_TUNING).toEqual({
      databasePoolSize: 10,
      eventRetryDelayMs: 1000,
      eventMaxAckPending: 1000,
      eventPullBatchSize: 256,
      commandEventBatchSize: 200,
      wakeAfterFanOutMs: 5,
      claimBatchSize: 100,
      maxRequestsInFlight: 200,
      maxRequestsInFlightPerSubscription: 60,
      maxClaimedWaitingPerSubscription: 60,
      maxClaimedWaiting: 200,
      failingSubscriptionProbeAfterMs: 10_000,
      signingKeysKept: 10_000,
      claimLeaseMs: 60_000,
      statisticsCheckIntervalMs: 1000,
      statisticsMinPages: 16,
      idlePollIntervalMs: 100,
      responseBodyLimitBytes: 4096,
      idleReceiverConnectionMs: 4000,
      maxIdleConnectionsPerReceiver: 60,
      outcomeWritesInFlight: 2,
      outcomeBatchSize: 200,
      firstRetryDelayMs: 5000,
      maxRetryDelayMs: 3_600_000,
      failingDisableAfterMs: 86_400_000,
      sessionUpdateIntervalMs: 60_000,
      controllerLocationCacheMs: 60_000,
      controllerLocationCacheSize: 10_000,
      ackFloorMaxAgeMs: 10,
      ackFloorRereads: 5,
      ackFloorRereadDelayMs: 10,
      eventAttemptsBeforeParking: 5,
      parkedEventClaimBatchSize: 20,
      parkedEventPollIntervalMs: 5000,
      subscriptionIndexReloadIntervalMs: 30_000,
      subscriptionIndexRetryMs: 1000,
    });
  });
});
