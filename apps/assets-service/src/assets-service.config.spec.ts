import { ASSETS_SERVICE_TUNING, loadAssetsServiceConfig } from './assets-service.config.js';

describe('assets-service tuning', () => {
  it('is the same for every instance, whatever the environment, and cannot be changed at run time', () => {
    const config = loadAssetsServiceConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x' });
    expect(config.tuning).toBe(ASSETS_SERVICE_TUNING);
    expect(Object.isFrozen(config.tuning)).toBe(true);
  });

  it('keeps the values the bench figures were measured with', () => {
    expect(ASSETS_SERVICE_TUNING).toEqual({
      databasePoolSize: 10,
      locationReadsInFlight: 8,
      locationReadBatchSize: 100,
      outboxBatchSize: 200,
      chargePointStateRetryDelayMs: 1000,
      chargePointStateMaxAckPending: 1000,
      chargePointStatePullBatchSize: 256,
      chargePointStateBatchSize: 256,
      controllerEventLogBatchSize: 256,
      handshakeLookupsInFlight: 2,
      handshakeLookupBatchSize: 200,
      handshakeFailureSweepEveryAttempts: 1000,
      incompleteReportTtlMs: 3600_000,
      idTokenImportPartMaxAgeMs: 3_600_000,
      idTokenSnapshotMaxPageSize: 2000,
      idTokenChangeMaxTokens: 500,
      localListUpdateMaxAgeMs: 3_600_000,
      localListMaxPageSize: 2000,
      localListItemsPerMessageDefault: 250,
      decisionsInFlight: 8,
      decisionBatchSize: 256,
      decisionInsertsInFlight: 2,
    });
  });
});
