import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type CommonServiceConfig, loadConfig, readCommonServiceConfig, TrustedProxies } from '@cpc/config';

export interface OcppTlsConfig {
  /** PEM files; several (comma-separated) when the gateway offers an RSA and an ECDSA certificate, as OCPP asks. */
  certFiles: string[];
  keyFiles: string[];
  /** CA that signs charge point certificates; set = the gateway asks for client certificates (security profile 3). */
  clientCaFile: string | undefined;
}

/** The gateway's fixed numbers (caches, retries, how long records are kept): not read from the environment. */
export interface OcppGatewayTuning {
  /**
   * How long a command's delivery record stays in NATS KV: longer than any command stays deliverable (a day), so a late
   * repeat still finds it.
   */
  deliveryRecordTtlMs: number;
  /**
   * StartTransactions remembered per controller, so one the charge point repeats (it missed our answer) gets its number
   * again.
   */
  rememberedTransactionStarts: number;
  /**
   * Compare-and-set attempts to advance a controller's transaction id before giving up (other instances raced us each
   * time).
   */
  transactionIdMaxAttempts: number;
  /** How long an unknown tenant slug is remembered, briefly, so a tenant created a moment ago is reachable soon. */
  unknownTenantTtlMs: number;
  /** Tenant slugs cached at most (the cache starts afresh when full): far more tenants than one gateway serves. */
  maxCachedTenantSlugs: number;
  /**
   * How much longer than one NATS request timeout (a handshake's credential check) a credential revocation is
   * remembered, to cover the moment between the check and the socket opening.
   */
  credentialRevocationMarginMs: number;
  /**
   * How often the revisions of the cached tenants' id tokens are compared with assets-service's; a tenant behind at
   * two checks in a row missed a change broadcast and is loaded again (the bound on a lost broadcast: twice this, plus
   * a load).
   */
  idTokenSyncIntervalMs: number;
  /** Tokens asked for per page when a tenant's tokens are loaded (assets-service caps it at 2,000). */
  idTokenSnapshotPageSize: number;
  /** Tokens and removals asked for per page of a send_local_list's list (assets-service caps it at 2,000). */
  localListPageSize: number;
  /** After a failed load of a tenant's tokens, how long answers go without them before the next attempt. */
  idTokenLoadRetryMs: number;
  /** Loads of one tenant tried while its revision keeps moving between the first page and the last. */
  idTokenLoadAttempts: number;
  /** Authorization decision events waiting for the event stream, at most; beyond, the oldest are dropped. */
  decisionQueueLimit: number;
  /**
   * How long a decision waits for others to share its event: at thousands of answers a second, a few events a second
   * instead of one per answer (the decision log is read by people, a fraction of a second late is fine).
   */
  decisionBatchDelayMs: number;
  /** Most decisions in one event (about 350 bytes each, far below NATS's message size limit). */
  decisionBatchSize: number;
  /** Decision events published at once, each waiting for JetStream's ack. */
  decisionPublishesInFlight: number;
  /** After a failed publish of a decision event, how long until the queue is tried again. */
  decisionRetryDelayMs: number;
  /**
   * A new socket's announcement (presence entry, connected event) that failed, e.g. a NATS timeout in a reconnect
   * storm, is tried again after this long, doubled per failure up to announceRetryMaxMs, while the socket is open.
   */
  announceRetryBaseMs: number;
  announceRetryMaxMs: number;
  /**
   * Connections the kernel may hold for the OCPP port before the gateway accepts them (capped by net.core.somaxconn):
   * Node's 511 overflowed when a fleet reconnected at once, and the overflow's charge points waited seconds for the
   * kernel's SYN retransmissions or were reset.
   */
  listenBacklog: number;
}

/** The tuning every instance runs with. */
export const OCPP_GATEWAY_TUNING: Readonly<OcppGatewayTuning> = Object.freeze({
  deliveryRecordTtlMs: 7 * 24 * 3600_000,
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

export interface OcppGatewayConfig extends CommonServiceConfig {
  ocppPort: number;
  /** Name of this instance in the presence registry and in connected/disconnected events. */
  gatewayInstanceId: string;
  /** Interval the gateway puts into its BootNotification answers. */
  heartbeatIntervalSeconds: number;
  /** A socket that answers no WebSocket ping is closed at the latest this long after it fell silent. */
  pingDeadlineMs: number;
  /** How long the gateway waits for a charge point's answer to a call from the platform. */
  callTimeoutMs: number;
  /**
   * A call still unanswered this long after it went out is announced with a call-sent event (0: at once); one
   * answered sooner needs none, its call-completed event carries the time it went out.
   */
  callSentEventDelayMs: number;
  /** Largest WebSocket message accepted; bigger frames close the socket (1009). */
  maxMessageBytes: number;
  /** Consecutive malformed OCPP-J messages tolerated before the socket is closed (1002). */
  maxBadMessages: number;
  /** How long a tenant slug → uuid resolution is reused. */
  tenantCacheTtlMs: number;
  /** Upgrades from one client address whose credentials are being checked at once; more are answered 429 at once. */
  maxConcurrentHandshakesPerAddress: number;
  /** Upgrades being checked at once in this instance; more wait their turn (below). */
  maxConcurrentHandshakes: number;
  /**
   * Upgrades that may wait for a place among those being checked: a gateway's whole fleet reconnecting at once after a
   * restart. Each holds its socket and request (a few kilobytes) while it waits; beyond this, 503 at once.
   */
  maxWaitingHandshakes: number;
  /** How long an upgrade waits for a place before it is answered 503; within a charge point's connect timeout. */
  handshakeWaitMs: number;
  /**
   * Incoming calls each charge point may send at once (token-bucket capacity). A compliant charge point sends one
   * call at a time; its largest bursts (after a boot: BootNotification, a StatusNotification per connector, the first
   * queued transaction messages) stay well below this.
   */
  incomingCallBurst: number;
  /** Incoming calls per second each charge point may keep up (refill rate), far above heartbeats and meter values. */
  incomingCallsPerSecond: number;
  /** Calls refused over budget in a row after which the gateway closes the socket (1008). */
  incomingCallRefusalsBeforeClose: number;
  /**
   * Whether security profile 0 (no credentials) is possible at all; when true, still only for tenants that allow it.
   * The production overlay sets it false.
   */
  allowSecurityProfile0: boolean;
  /**
   * An instance that has not confirmed itself for this long is dead: another instance sweeps its presence entries and
   * publishes their disconnects.
   */
  presenceTtlMs: number;
  /**
   * Each open socket's presence entry is checked once in this interval (spread evenly): a takeover elsewhere whose
   * notice was lost, or an entry removed behind this instance's back, is noticed within it.
   */
  presenceAuditMs: number;
  /** On SIGTERM, how long in-flight calls get to settle before sockets are dropped. */
  shutdownGraceMs: number;
  /**
   * The ingress (TRUSTED_PROXIES, addresses and CIDR ranges): only from these TCP peers are X-Forwarded-For/-Proto and
   * the client-certificate headers believed; from anyone else they are ignored.
   */
  trustedProxies: TrustedProxies;
  /** Header in which the ingress passes the verified client certificate's subject DN (ingress-nginx: ssl-client-subject-dn). */
  proxyClientCertSubjectHeader: string;
  /** Header in which the ingress says whether it verified that certificate (ingress-nginx: ssl-client-verify = SUCCESS). */
  proxyClientCertVerifyHeader: string;
  tls: OcppTlsConfig | undefined;
  tuning: Readonly<OcppGatewayTuning>;
}

function fileList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

export function loadOcppGatewayConfig(env: NodeJS.ProcessEnv = process.env): OcppGatewayConfig {
  return loadConfig(
    'ocpp-gateway',
    (reader) => {
      const common = readCommonServiceConfig(reader, 3104);
      const certFiles = fileList(reader.optionalString('OCPP_TLS_CERT_FILE'));
      const keyFiles = fileList(reader.optionalString('OCPP_TLS_KEY_FILE'));
      const clientCaFile = reader.optionalString('OCPP_TLS_CLIENT_CA_FILE');
      if (certFiles.length !== keyFiles.length) {
        reader.problems.push('OCPP_TLS_CERT_FILE and OCPP_TLS_KEY_FILE must name the same number of files');
      }
      if (reader.optionalString('OCPP_TRUST_PROXY_HEADERS') !== undefined) {
        // A setting that trusted every peer's headers must not linger silently: say what replaced it.
        reader.problems.push(
          'OCPP_TRUST_PROXY_HEADERS is gone: list the ingress addresses in TRUSTED_PROXIES instead',
        );
      }
      if (clientCaFile && certFiles.length === 0) {
        reader.problems.push(
          'OCPP_TLS_CLIENT_CA_FILE needs OCPP_TLS_CERT_FILE and OCPP_TLS_KEY_FILE (client certificates need TLS)',
        );
      }
      return {
        ...common,
        ocppPort: reader.int('OCPP_PORT', { default: 9000, min: 0, max: 65535 }),
        gatewayInstanceId: reader.string('OCPP_GATEWAY_INSTANCE_ID', {
          default: `${hostname()}-${randomBytes(3).toString('hex')}`,
        }),
        heartbeatIntervalSeconds: reader.int('OCPP_HEARTBEAT_INTERVAL_SECONDS', {
          default: 300,
          min: 10,
          max: 86400,
        }),
        pingDeadlineMs: reader.int('OCPP_PING_DEADLINE_MS', { default: 60000, min: 200, max: 3600000 }),
        callTimeoutMs: reader.int('OCPP_CALL_TIMEOUT_MS', { default: 30000, min: 100, max: 600000 }),
        callSentEventDelayMs: reader.int('OCPP_CALL_SENT_EVENT_DELAY_MS', {
          default: 100,
          min: 0,
          max: 600000,
        }),
        maxMessageBytes: reader.int('OCPP_MAX_MESSAGE_BYTES', {
          default: 512 * 1024,
          min: 1024,
          max: 16 * 1024 * 1024,
        }),
        maxBadMessages: reader.int('OCPP_MAX_BAD_MESSAGES', { default: 10, min: 1, max: 1000 }),
        tenantCacheTtlMs: reader.int('OCPP_TENANT_CACHE_TTL_MS', { default: 30000, min: 0, max: 3600000 }),
        maxConcurrentHandshakesPerAddress: reader.int('OCPP_MAX_CONCURRENT_HANDSHAKES_PER_ADDRESS', {
          default: 10,
          min: 1,
          max: 100000,
        }),
        maxConcurrentHandshakes: reader.int('OCPP_MAX_CONCURRENT_HANDSHAKES', {
          default: 500,
          min: 1,
          max: 1000000,
        }),
        maxWaitingHandshakes: reader.int('OCPP_MAX_WAITING_HANDSHAKES', {
          default: 20000,
          min: 0,
          max: 1000000,
        }),
        handshakeWaitMs: reader.int('OCPP_HANDSHAKE_WAIT_MS', { default: 30000, min: 1, max: 600000 }),
        incomingCallBurst: reader.int('OCPP_INCOMING_CALL_BURST', { default: 60, min: 1, max: 100000 }),
        incomingCallsPerSecond: reader.int('OCPP_INCOMING_CALLS_PER_SECOND', {
          default: 10,
          min: 1,
          max: 100000,
        }),
        incomingCallRefusalsBeforeClose: reader.int('OCPP_INCOMING_CALL_REFUSALS_BEFORE_CLOSE', {
          default: 100,
          min: 1,
          max: 1000000,
        }),
        allowSecurityProfile0:
          reader.oneOf('OCPP_ALLOW_SECURITY_PROFILE_0', ['true', 'false'] as const, { default: 'true' }) ===
          'true',
        presenceTtlMs: reader.int('OCPP_PRESENCE_TTL_MS', { default: 60000, min: 3000, max: 3600000 }),
        presenceAuditMs: reader.int('OCPP_PRESENCE_AUDIT_MS', { default: 600000, min: 1000, max: 86400000 }),
        shutdownGraceMs: reader.int('OCPP_SHUTDOWN_GRACE_MS', { default: 10000, min: 0, max: 300000 }),
        trustedProxies: TrustedProxies.parse(reader.optionalString('TRUSTED_PROXIES'), reader.problems),
        proxyClientCertSubjectHeader: reader
          .string('OCPP_PROXY_CLIENT_CERT_SUBJECT_HEADER', { default: 'ssl-client-subject-dn' })
          .toLowerCase(),
        proxyClientCertVerifyHeader: reader
          .string('OCPP_PROXY_CLIENT_CERT_VERIFY_HEADER', { default: 'ssl-client-verify' })
          .toLowerCase(),
        tls: certFiles.length > 0 ? { certFiles, keyFiles, clientCaFile } : undefined,
        tuning: OCPP_GATEWAY_TUNING,
      };
    },
    env,
  );
}
