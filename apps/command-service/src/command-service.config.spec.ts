import { COMMAND_SERVICE_TUNING, loadCommandServiceConfig } from './command-service.config.js';

describe('command-service tuning', () => {
  it('is the same for every instance, whatever the environment, and cannot be changed at run time', () => {
    const config = loadCommandServiceConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' });
    expect(config.tuning).toBe(COMMAND_SERVICE_TUNING);
    expect(Object.isFrozen(config.tuning)).toBe(true);
  });

  it('keeps the values the bench figures were measured with', () => {
    expect(COMMAND_SERVICE_TUNING).toEqual({
      deliveryPoolSize: 4,
      maxDeliveriesInFlight: 500,
      claimBatchSize: 100,
      minClaimSpacingMs: 5,
      deliveryRetryDelayMs: 1000,
      gatewayReplyMarginMs: 5000,
      creationBatchesInFlight: 4,
      creationBatchSize: 500,
      creationMaxLeasesPerBatch: 64,
      recentlyEndedCapacity: 50_000,
      listReadsAtOnce: 5,
      listReadsWaitingAtMost: 200,
      reconnectSettleMs: 5000,
      gatewayCallEventsConcurrency: 200,
      connectedEventsBatchSize: 256,
      chargingSessionEventsBatchSize: 256,
      maxStoredResponseBytes: 65_536,
      controllerLookupsInFlight: 2,
      controllerLookupBatchSize: 500,
      knownControllersMax: 100_000,
      knownControllerTtlMs: 900_000,
      idempotencyKeySweepIntervalMs: 3_600_000,
      statisticsCheckIntervalMs: 1000,
      statisticsMinPages: 16,
      meterValuePartitionsAhead: 2,
      meterValuePartitionCheckMs: 21_600_000,
      meterValueEventsConcurrency: 256,
      meterValueBatchMaxEvents: 256,
      meterValueInsertsInFlight: 2,
    });
  });
});
