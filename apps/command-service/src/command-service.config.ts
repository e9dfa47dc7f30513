import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';

export const COMMAND_SERVICE_NAME = 'command-service';
export const CONTROL_SCHEMA = 'control';
export const DEFAULT_COMMAND_SERVICE_HEALTH_PORT = 3103;

/**
 * The numbers command-service's throughput and fairness were tuned with (measured together, on the bench): fixed, not
 * read from the environment.
 */
export interface CommandServiceTuning {
  /**
   * Connections of the delivery pool: the dispatcher's claims, the transitions' writer, the outbox relay, and one for
   * the rest (renewals, releases).
   */
  deliveryPoolSize: number;
  /** Deliveries one instance runs at once (different charge points; one per charge point by the queue's rule). */
  maxDeliveriesInFlight: number;
  /** Most lane heads one claim statement takes. */
  claimBatchSize: number;
  /**
   * Least time between the starts of two claim runs. Every creation and every ending wakes the dispatcher; claiming
   * at each wake made nearly one claim query per command (pg_stat_statements at 100/s: 981 claims for 1,178
   * commands), while waiting this long lets one claim take up what several wakes announced.
   */
  minClaimSpacingMs: number;
  /** Retry delay when something between us and the charge point failed (NATS, assets-service, the database). */
  deliveryRetryDelayMs: number;
  /**
   * How long after this instance's NATS connection came back "no responders" is not taken as "offline": the gateway
   * instances reconnect on their own schedule (every 500 ms while the server is away), and until each has registered
   * its call subjects again its charge points look offline. Meanwhile an offline lane is looked at again after
   * deliveryRetryDelayMs instead of COMMAND_OFFLINE_RECHECK_MS, and a sent command is not failed `connection_lost`.
   */
  reconnectSettleMs: number;
  /** Margin over the gateway's longest reply time (waiting for the charge point's turn, then its answer). */
  gatewayReplyMarginMs: number;
  /**
   * Creation batches written at once. Each holds a connection only for its one statement; more than one lets a batch
   * that waits for a count row (held by a status change until it commits) not hold up every creation behind it.
   */
  creationBatchesInFlight: number;
  /** Most commands in one creation batch, so one statement's parameters stay small. */
  creationBatchSize: number;
  /**
   * Most commands one creation statement stores leased: each takes an advisory lock until its commit, in a lock table
   * all connections share (max_locks_per_transaction × max_connections entries, 6,400 by default).
   */
  creationMaxLeasesPerBatch: number;
  /** Command uuids remembered as ended, so repeated endings skip the database: the endings of several seconds. */
  recentlyEndedCapacity: number;
  /**
   * List reads (GET /control/commands) running at once; the others wait their turn. A page deep by number can hold a
   * connection for seconds, and creations share the pool (10 connections) with them: half of it stays theirs.
   */
  listReadsAtOnce: number;
  /** List reads waiting for their turn at most; beyond, a list is answered service_unavailable at once. */
  listReadsWaitingAtMost: number;
  /** Gateway call events handled at once; their transitions are written together (see CommandTransitions). */
  gatewayCallEventsConcurrency: number;
  /** Most connected events whose lanes one statement wakes, so a reconnect storm costs a statement per pull. */
  connectedEventsBatchSize: number;
  /** Most charge-point events one open-session check covers, so a storm's boots and statuses cost one per pull. */
  chargingSessionEventsBatchSize: number;
  /**
   * The largest answer of a charge point (as JSON, in bytes) kept with its command as `result.response`; a larger one
   * is dropped and only its size kept (the gateway already refuses messages over OCPP_MAX_MESSAGE_BYTES).
   */
  maxStoredResponseBytes: number;
  /** Controller lookups sent to assets-service at once (each asks for many controllers). */
  controllerLookupsInFlight: number;
  /** Most controllers asked for in one lookup (assets-service takes up to 1,000). */
  controllerLookupBatchSize: number;
  /** Controllers this instance remembers as existing, at most (the oldest remembered are forgotten first). */
  knownControllersMax: number;
  /** How long a controller is remembered as existing, should a deletion not reach this instance. */
  knownControllerTtlMs: number;
  /** How often expired idempotency keys are removed (the table holds about one day of keys plus this). */
  idempotencyKeySweepIntervalMs: number;
  /**
   * How often an instance compares control.commands' size with the size its statistics were taken at
   * (TableStatisticsKeeper): about the longest a table that has doubled is read with plans made for its earlier size.
   */
  statisticsCheckIntervalMs: number;
  /** Below this size (pages of 8 KiB) control.commands' statistics are left alone: plans barely differ there. */
  statisticsMinPages: number;
  /** Months of meter-value partitions created ahead, so current samples never land in the default partition. */
  meterValuePartitionsAhead: number;
  /** How often an instance checks the meter-value partitions (creating months ahead, dropping expired ones). */
  meterValuePartitionCheckMs: number;
  /** Meter-value events handled at once; their samples are written together, in one statement per group. */
  meterValueEventsConcurrency: number;
  /** Most events one meter-value insert writes (a message carries a handful of samples), so its arrays stay small. */
  meterValueBatchMaxEvents: number;
  /**
   * Meter-value inserts running at once. Two let one group be written while the next collects; their sessions'
   * summaries are upserted in one key order, so they never wait on each other in a cycle.
   */
  meterValueInsertsInFlight: number;
}

/** The tuning every instance runs with. */
export const COMMAND_SERVICE_TUNING: Readonly<CommandServiceTuning> = Object.freeze({
  deliveryPoolSize: 4,
  maxDeliveriesInFlight: 500,
  claimBatchSize: 100,
  minClaimSpacingMs: 5,
  deliveryRetryDelayMs: 1000,
  reconnectSettleMs: 5000,
  gatewayReplyMarginMs: 5000,
  creationBatchesInFlight: 4,
  creationBatchSize: 500,
  creationMaxLeasesPerBatch: 64,
  recentlyEndedCapacity: 50_000,
  listReadsAtOnce: 5,
  listReadsWaitingAtMost: 200,
  gatewayCallEventsConcurrency: 200,
  connectedEventsBatchSize: 256,
  chargingSessionEventsBatchSize: 256,
  maxStoredResponseBytes: 65_536,
  controllerLookupsInFlight: 2,
  controllerLookupBatchSize: 500,
  knownControllersMax: 100_000,
  knownControllerTtlMs: 15 * 60_000,
  idempotencyKeySweepIntervalMs: 3600_000,
  statisticsCheckIntervalMs: 1000,
  statisticsMinPages: 16,
  meterValuePartitionsAhead: 2,
  meterValuePartitionCheckMs: 6 * 3600_000,
  meterValueEventsConcurrency: 256,
  meterValueBatchMaxEvents: 256,
  meterValueInsertsInFlight: 2,
});

export interface CommandServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  /** The ocpp-gateway's call timeout (same variable): how long a delivery request may take follows from it. */
  ocppCallTimeoutMs: number;
  /** How often the dispatcher looks for due commands besides being woken (other instances' commands, retries). */
  commandDispatchIntervalMs: number;
  /** How long a claimed delivery stays this instance's without being renewed (a killed instance's claims lapse). */
  commandLeaseMs: number;
  /** How often an offline charge point is tried again although no connected event came. */
  commandOfflineRecheckMs: number;
  /** How often status events that could not be published at once are retried (the outbox relay). */
  outboxRelayIntervalMs: number;
  /** Months of meter values kept (the current one included); older months are dropped whole. */
  meterValueRetentionMonths: number;
  tuning: Readonly<CommandServiceTuning>;
}

export function loadCommandServiceConfig(env: NodeJS.ProcessEnv = process.env): CommandServiceConfig {
  return loadConfig(
    COMMAND_SERVICE_NAME,
    (reader) => ({
      ...readCommonServiceConfig(reader, DEFAULT_COMMAND_SERVICE_HEALTH_PORT),
      databaseUrl: readDatabaseUrl(reader),
      ocppCallTimeoutMs: reader.int('OCPP_CALL_TIMEOUT_MS', { default: 30000, min: 100, max: 600000 }),
      commandDispatchIntervalMs: reader.int('COMMAND_DISPATCH_INTERVAL_MS', {
        default: 1000,
        min: 50,
        max: 60000,
      }),
      commandLeaseMs: reader.int('COMMAND_LEASE_MS', { default: 15000, min: 1000, max: 600000 }),
      commandOfflineRecheckMs: reader.int('COMMAND_OFFLINE_RECHECK_MS', {
        default: 15000,
        min: 100,
        max: 3600000,
      }),
      outboxRelayIntervalMs: reader.int('OUTBOX_RELAY_INTERVAL_MS', { default: 2000, min: 100, max: 60000 }),
      meterValueRetentionMonths: reader.int('METER_VALUES_RETENTION_MONTHS', {
        default: 13,
        min: 1,
        max: 120,
      }),
      tuning: COMMAND_SERVICE_TUNING,
    }),
    env,
  );
}
