import { isIP } from 'node:net';
import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, readDatabaseUrl } from '@cpc/config';

export const WEBHOOK_SERVICE_NAME = 'webhook-service';
export const WEBHOOKS_SCHEMA = 'webhooks';
export const DEFAULT_WEBHOOK_HEALTH_PORT = 3105;

/** The numbers webhook-service runs with: fixed, not read from the environment. */
export interface WebhookServiceTuning {
  /** Connections of the service's pool: the delivery workers' claims and updates, the consumers and the API. */
  databasePoolSize: number;
  /** Redelivery delay of an event whose fan-out failed (the database was away, say). */
  eventRetryDelayMs: number;
  /**
   * Tries of an event's fan-out before it is parked (webhooks.parked_events) and acknowledged: until then the
   * consumer's ack floor, and with it every later delivery of the consumer, waits for it.
   */
  eventAttemptsBeforeParking: number;
  /** How often each replica looks for parked events due for another try. */
  parkedEventPollIntervalMs: number;
  /** Parked events one look takes at most (tried one after the other). */
  parkedEventClaimBatchSize: number;
  /** Events delivered by JetStream and not yet acknowledged, at most, per consumer. */
  eventMaxAckPending: number;
  /** Events one pull fetches and buffers, so a backlog is read in few round trips. */
  eventPullBatchSize: number;
  /**
   * Command status events fanned out in one statement (and one commit) at most: the events delivered while the
   * previous batch was written, so a batch grows with the rate and a lone event goes at once.
   */
  commandEventBatchSize: number;
  /**
   * Pause between writing an event's rows and telling a busy delivery loop: the event is acknowledged when its handler
   * returns, and its rows become claimable once the consumer's ack floor has moved past it (the loop's next wait
   * reads the floors first).
   */
  wakeAfterFanOutMs: number;
  /**
   * Age past which a claim starts a new reading of the consumers' ack floors (two JetStream API requests), in the
   * background: the claim takes the last reading, which only holds the newest rows back a little, and the loop claims
   * again when the new one lets more through. While the loop waits, events whose rows were written start a reading once
   * the server has their acknowledgement, whatever its age.
   */
  ackFloorMaxAgeMs: number;
  /**
   * Readings after the first, at most, for events acknowledged without confirmation while the floor is still short of
   * them (the server had not taken the acknowledgement when it answered), and the pause before each: the server gets
   * 50 ms to take it; past that the loop's polls find the rows.
   */
  ackFloorRereads: number;
  ackFloorRereadDelayMs: number;
  /** Delivery rows one claim takes at most (each the head of its own subject's queue). */
  claimBatchSize: number;
  /** HTTP requests to receivers in flight at once in one replica. */
  maxRequestsInFlight: number;
  /**
   * Requests in flight to one subscription's receiver at once in one replica (from the request until its answer), so
   * a slow one cannot take them all; a claim takes no more of a subscription's rows than its free share. At 20 a claim
   * round that waits for a busy database left a healthy receiver's share idle (the bench: 1,000 events/s to one).
   */
  maxRequestsInFlightPerSubscription: number;
  /**
   * Claimed rows of one subscription that wait in a replica, beyond its free requests, to go out the moment a request
   * is answered: without them a request slot stands idle from its answer until the next claim round, which on a busy
   * database takes about as long as the request (docs/performance.md, webhook deliveries).
   */
  maxClaimedWaitingPerSubscription: number;
  /** Claimed rows waiting in one replica, of all subscriptions together. */
  maxClaimedWaiting: number;
  /**
   * A subscription whose deliveries have failed this long without a success gets one request at a time (a probe)
   * instead of its share until one succeeds: a receiver that is down holds one of the replica's maxRequestsInFlight,
   * not maxRequestsInFlightPerSubscription, so a few of them cannot take them all from the healthy ones.
   */
  failingSubscriptionProbeAfterMs: number;
  /**
   * Signing keys kept open in a replica (SigningKeys), one per subscription secret in use: opening one per delivery
   * (an AES-GCM decryption and a key import) was a tenth of webhook-service's CPU.
   */
  signingKeysKept: number;
  /**
   * How often an instance compares its tables' sizes with the sizes their statistics were taken at
   * (TableStatisticsKeeper): about the longest a table that has doubled is read with plans made for its earlier size.
   */
  statisticsCheckIntervalMs: number;
  /** Below this size (pages of 8 KiB) a table's statistics are left alone: plans barely differ there. */
  statisticsMinPages: number;
  /** How long a claimed row stays invisible to other replicas: longer than one attempt can take. */
  claimLeaseMs: number;
  /** Pause of the delivery loop when nothing was due (a new event wakes it at once on this replica). */
  idlePollIntervalMs: number;
  /** Bytes of a receiver's response body read at most (kept for the delivery's last_error); the rest is dropped. */
  responseBodyLimitBytes: number;
  /**
   * How long a connection to a receiver stays open without a request, for the next delivery to it: below the 5 s
   * after which common servers (Node's among them) close an idle connection, so we close first; a shorter
   * `Keep-Alive: timeout` announced by the receiver wins.
   */
  idleReceiverConnectionMs: number;
  /**
   * Idle connections kept open per receiver address: maxRequestsInFlightPerSubscription, as many as one
   * subscription's requests can use at once.
   */
  maxIdleConnectionsPerReceiver: number;
  /**
   * Statements writing attempts' outcomes running at once; the outcomes that arrive meanwhile go together into the
   * next one (one statement and one commit for many deliveries instead of one each).
   */
  outcomeWritesInFlight: number;
  /** Outcomes one statement writes at most: maxRequestsInFlight, so a whole round of requests fits one. */
  outcomeBatchSize: number;
  /** First retry delay; each further one doubles, with ±20 % jitter, up to maxRetryDelayMs. */
  firstRetryDelayMs: number;
  /** Longest pause between two attempts. */
  maxRetryDelayMs: number;
  /** A subscription whose deliveries have failed this long without one success is disabled. */
  failingDisableAfterMs: number;
  /** At most one `charging_session.updated` per session in this interval. */
  sessionUpdateIntervalMs: number;
  /** How long a controller's location is remembered for location filters. */
  controllerLocationCacheMs: number;
  /** Controllers whose location is remembered at most (the memory is emptied when it is full). */
  controllerLocationCacheSize: number;
  /**
   * How often each replica reads all enabled subscriptions again for its index (SubscriptionIndex), whatever notices
   * it heard: the longest a change made through another replica can go unseen here when its notice was lost.
   */
  subscriptionIndexReloadIntervalMs: number;
  /** Pause before the index is read again after a read failed (meanwhile every event runs its fan-out). */
  subscriptionIndexRetryMs: number;
}

/** The tuning every instance runs with. */
export const WEBHOOK_SERVICE_TUNING: Readonly<WebhookServiceTuning> = Object.freeze({
  databasePoolSize: 10,
  eventRetryDelayMs: 1000,
  eventAttemptsBeforeParking: 5,
  parkedEventPollIntervalMs: 5000,
  parkedEventClaimBatchSize: 20,
  eventMaxAckPending: 1000,
  eventPullBatchSize: 256,
  commandEventBatchSize: 200,
  wakeAfterFanOutMs: 5,
  ackFloorMaxAgeMs: 10,
  ackFloorRereads: 5,
  ackFloorRereadDelayMs: 10,
  claimBatchSize: 100,
  maxRequestsInFlight: 200,
  maxRequestsInFlightPerSubscription: 60,
  maxClaimedWaitingPerSubscription: 60,
  maxClaimedWaiting: 200,
  failingSubscriptionProbeAfterMs: 10_000,
  signingKeysKept: 10_000,
  statisticsCheckIntervalMs: 1000,
  statisticsMinPages: 16,
  claimLeaseMs: 60_000,
  idlePollIntervalMs: 100,
  responseBodyLimitBytes: 4096,
  idleReceiverConnectionMs: 4000,
  maxIdleConnectionsPerReceiver: 60,
  outcomeWritesInFlight: 2,
  outcomeBatchSize: 200,
  firstRetryDelayMs: 5000,
  maxRetryDelayMs: 3_600_000,
  failingDisableAfterMs: 24 * 3_600_000,
  sessionUpdateIntervalMs: 60_000,
  controllerLocationCacheMs: 60_000,
  controllerLocationCacheSize: 10_000,
  subscriptionIndexReloadIntervalMs: 30_000,
  subscriptionIndexRetryMs: 1000,
});

export interface WebhookServiceConfig extends CommonServiceConfig {
  databaseUrl: string;
  /** Encrypts the subscriptions' signing secrets at rest (AES-256-GCM, key = SHA-256 of it); required in production. */
  secretEncryptionSecret: string;
  /** Whether `http://` receiver URLs are accepted (never in production: only https there). */
  allowHttpTargets: boolean;
  /** CIDR ranges receivers may resolve to although they are loopback, private, link-local… (tests, on-premises). */
  allowedTargetRanges: string[];
  /** How long the previous secret keeps signing beside the new one after a rotation. */
  secretRotationGraceSeconds: number;
  /** Time allowed to open the TCP (and TLS) connection to a receiver. */
  connectTimeoutMs: number;
  /** Time allowed from the request's start until the receiver's response status and body (up to the limit). */
  responseTimeoutMs: number;
  tuning: Readonly<WebhookServiceTuning>;
}

const DEVELOPMENT_ENCRYPTION_SECRET = 'development-only-webhook-secret-key-change-me';

export function loadWebhookServiceConfig(env: NodeJS.ProcessEnv = process.env): WebhookServiceConfig {
  return loadConfig(
    WEBHOOK_SERVICE_NAME,
    (reader) => {
      const common = readCommonServiceConfig(reader, DEFAULT_WEBHOOK_HEALTH_PORT);
      const production = common.nodeEnv === 'production';
      const allowHttp = reader.oneOf('WEBHOOK_ALLOW_HTTP', ['true', 'false'] as const, { default: 'false' });
      if (production && allowHttp === 'true')
        reader.problems.push('WEBHOOK_ALLOW_HTTP cannot be true in production');
      const ranges = (reader.optionalString('WEBHOOK_ALLOWED_TARGET_RANGES') ?? '')
        .split(',')
        .map((range) => range.trim())
        .filter((range) => range !== '');
      for (const range of ranges) {
        if (!isCidr(range))
          reader.problems.push(`WEBHOOK_ALLOWED_TARGET_RANGES: "${range}" is not a CIDR range`);
      }
      const connectTimeoutMs = reader.int('WEBHOOK_CONNECT_TIMEOUT_MS', {
        default: 3000,
        min: 100,
        max: 60_000,
      });
      const responseTimeoutMs = reader.int('WEBHOOK_RESPONSE_TIMEOUT_MS', {
        default: 10_000,
        min: 100,
        max: 60_000,
      });
      // A claimed row may wait half its lease before it is sent (ClaimedDeliveries); its attempt must end in the rest.
      const attemptAtMost = WEBHOOK_SERVICE_TUNING.claimLeaseMs / 2;
      if (connectTimeoutMs + responseTimeoutMs >= attemptAtMost)
        reader.problems.push(
          `WEBHOOK_CONNECT_TIMEOUT_MS + WEBHOOK_RESPONSE_TIMEOUT_MS must be under ${attemptAtMost} ms ` +
            `(half the claim lease), so that an attempt ends while its delivery is leased`,
        );
      return {
        ...common,
        databaseUrl: readDatabaseUrl(reader),
        secretEncryptionSecret: reader.string('WEBHOOK_SECRET_ENCRYPTION_SECRET', {
          default: production ? undefined : DEVELOPMENT_ENCRYPTION_SECRET,
          minLength: 32,
        }),
        allowHttpTargets: allowHttp === 'true',
        allowedTargetRanges: ranges,
        secretRotationGraceSeconds: reader.int('WEBHOOK_SECRET_ROTATION_GRACE_SECONDS', {
          default: 86_400,
          min: 0,
          max: 30 * 86_400,
        }),
        connectTimeoutMs,
        responseTimeoutMs,
        tuning: WEBHOOK_SERVICE_TUNING,
      };
    },
    env,
  );
}

function isCidr(range: string): boolean {
  const [address, prefix, ...rest] = range.split('/');
  if (rest.length > 0 || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  const version = isIP(address);
  return version !== 0 && Number(prefix) <= (version === 4 ? 32 : 128);
}
