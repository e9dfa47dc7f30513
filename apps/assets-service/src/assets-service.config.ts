import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';
import {
  type ChargePointAuthenticationConfig,
  readChargePointAuthenticationConfig,
} from './charge-points/charge-point-authentication.config.js';

export const ASSETS_SERVICE_NAME = 'assets-service';
export const ASSETS_SCHEMA = 'assets';
export const DEFAULT_ASSETS_HEALTH_PORT = 3102;

/**
 * The numbers assets-service's throughput was tuned with (measured on the bench): fixed, not read from the
 * environment.
 */
export interface AssetsServiceTuning {
  /**
   * Connections of the service's pool: the location reads' statements and room for writes and handshakes beside them.
   */
  databasePoolSize: number;
  /**
   * Location reads (GET location, the hottest read) running as statements at once; reads arriving meanwhile share the
   * next one. Eight of the pool's ten connections: fewer left PostgreSQL's processes waiting (50 connections of GET
   * location: 1,853 req/s with two, 2,192 with eight).
   */
  locationReadsInFlight: number;
  /** Most location reads one statement takes, so one statement's parameters stay small. */
  locationReadBatchSize: number;
  /** Most events one outbox relay run publishes per transaction (it runs again while batches come back full). */
  outboxBatchSize: number;
  /** Redelivery delay of a charge point state event whose handling failed (the database was away, say). */
  chargePointStateRetryDelayMs: number;
  /**
   * Charge point state events delivered and not yet acknowledged, at most: a backlog after an outage drains in order.
   */
  chargePointStateMaxAckPending: number;
  /** Charge point state events one pull fetches and buffers, so a backlog is read in few round trips. */
  chargePointStatePullBatchSize: number;
  /**
   * Most charge point state events applied in one transaction (a few set-based statements instead of one or two per
   * event), so a reconnect storm's backlog is written in few round trips; one pull's worth.
   */
  chargePointStateBatchSize: number;
  /**
   * Most charge-point events written to the controllers' event log in one statement and commit (one commit per event
   * made the write-ahead log's flushes the wait of a reconnect storm); one pull's worth.
   */
  controllerEventLogBatchSize: number;
  /**
   * Controller look-ups of handshakes running as statements at once; handshakes arriving meanwhile share the next one
   * (a reconnect storm's twenty thousand become a few hundred statements). Two of the pool's ten connections.
   */
  handshakeLookupsInFlight: number;
  /** Most handshakes one look-up statement answers, so its parameters stay small. */
  handshakeLookupBatchSize: number;
  /** Handshake checks between two sweeps of expired failure counters, so the table holds only live windows. */
  handshakeFailureSweepEveryAttempts: number;
  /**
   * How long the parts of a 2.0.1 NotifyReport that never completes are kept (removed when the controller's next part
   * arrives), so a charge point that never finishes its reports cannot fill the table.
   */
  incompleteReportTtlMs: number;
  /** Age past which the parts of an id-token import never committed (its api-gateway stopped) are dropped. */
  idTokenImportPartMaxAgeMs: number;
  /** Most tokens one page of a gateway's cache load carries (far below NATS's 1 MiB message limit). */
  idTokenSnapshotMaxPageSize: number;
  /** Most tokens a change broadcast carries; a larger change (an import) tells the gateways to reload instead. */
  idTokenChangeMaxTokens: number;
  /**
   * Age past which the update prepared for a send_local_list whose answer never came (the call failed or timed out)
   * is dropped; far beyond any call timeout, so an answer arriving late still finds its update.
   */
  localListUpdateMaxAgeMs: number;
  /** Most tokens and removals one page of a local list update carries (far below NATS's 1 MiB message limit). */
  localListMaxPageSize: number;
  /**
   * Entries per SendLocalList for a charge point that has not reported its limit (1.6 SendLocalListMaxLength, 2.0.1
   * LocalAuthListCtrlr.ItemsPerMessage): EVerest's default ItemsPerMessage, which most charge points take, while a
   * list of 5,000 still goes in 20 messages.
   */
  localListItemsPerMessageDefault: number;
  /** Decision events (each up to a gateway's `decisionBatchSize` decisions) handled at once; rows arriving together share INSERTs. */
  decisionsInFlight: number;
  /** Most decisions one INSERT stores. */
  decisionBatchSize: number;
  /** INSERTs of decisions running at once. */
  decisionInsertsInFlight: number;
}

/** The tuning every instance runs with. */
export const ASSETS_SERVICE_TUNING: Readonly<AssetsServiceTuning> = Object.freeze({
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
  idTokenImportPartMaxAgeMs: 60 * 60_000,
  idTokenSnapshotMaxPageSize: 2000,
  idTokenChangeMaxTokens: 500,
  localListUpdateMaxAgeMs: 60 * 60_000,
  localListMaxPageSize: 2000,
  localListItemsPerMessageDefault: 250,
  decisionsInFlight: 8,
  decisionBatchSize: 256,
  decisionInsertsInFlight: 2,
});

/** Injection token of AssetsServiceTuning. */
export const ASSETS_SERVICE_TUNING_TOKEN = Symbol('ASSETS_SERVICE_TUNING');

export interface AssetsServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  /** How often events that could not be published at once are retried (the outbox relay). */
  outboxRelayIntervalMs: number;
  chargePointAuthentication: ChargePointAuthenticationConfig;
  tuning: Readonly<AssetsServiceTuning>;
}

export function loadAssetsServiceConfig(env: NodeJS.ProcessEnv = process.env): AssetsServiceConfig {
  return loadConfig(
    ASSETS_SERVICE_NAME,
    (reader) => ({
      ...readCommonServiceConfig(reader, DEFAULT_ASSETS_HEALTH_PORT),
      databaseUrl: readDatabaseUrl(reader),
      outboxRelayIntervalMs: reader.int('OUTBOX_RELAY_INTERVAL_MS', { default: 2000, min: 100, max: 60000 }),
      chargePointAuthentication: readChargePointAuthenticationConfig(reader),
      tuning: ASSETS_SERVICE_TUNING,
    }),
    env,
  );
}
