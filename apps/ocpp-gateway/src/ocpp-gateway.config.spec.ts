import { loadOcppGatewayConfig, OCPP_GATEWAY_TUNING } from './ocpp-gateway.config.js';

describe('ocpp-gateway tuning', () => {
  it('is the same for every instance, whatever the environment, and cannot be changed at run time', () => {
    const config = loadOcppGatewayConfig({});
    expect(config.tuning).toBe(OCPP_GATEWAY_TUNING);
    expect(Object.isFrozen(config.tuning)).toBe(true);
  });

  it('keeps the values the gateway was measured and tested with', () => {
    expect(OCPP_GATEWAY_TUNING).toEqual({
      deliveryRecordTtlMs: 604_800_000,
      rememberedTransactionStarts: 16,
      transactionIdMaxAttempts: 20,
      unknownTenantTtlMs: 5000,
      maxCachedTenantSlugs: 10_000,
      credentialRevocationMarginMs: 60_000,
      idTokenSyncIntervalMs: 250,
      idTokenSnapshotPageSize: 2000,
      localListPageSize: 2000,
      idTokenLoadRetryMs: 1000,
      idTokenLoadAttempts: 3,
      decisionQueueLimit: 100_000,
      decisionBatchDelayMs: 100,
      decisionBatchSize: 1000,
      decisionPublishesInFlight: 4,
      decisionRetryDelayMs: 1000,
      announceRetryBaseMs: 250,
      announceRetryMaxMs: 5000,
      listenBacklog: 4096,
    });
  });
});
