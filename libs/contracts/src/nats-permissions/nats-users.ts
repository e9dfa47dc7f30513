import { API_RATE_LIMITS_BUCKET } from '../api-gateway/api-rate-limits.contract.js';
import { AssetsSubjects } from '../assets/assets.subjects.js';
import { AuthAdminSubjects } from '../auth/admin.contract.js';
import { AuthSubjects } from '../auth/auth.subjects.js';
import {
  AUTHORIZATION_API_SUBJECTS,
  AuthorizationSubjects,
} from '../authorization/authorization.subjects.js';
import { ChargePointEventSubjects } from '../charge-points/charge-point-events.js';
import { TelemetryEventSubjects } from '../charge-points/meter-values-events.js';
import { ChargingSessionSubjects } from '../control/charging-sessions.contract.js';
import { ReservationSubjects } from '../control/reservations.contract.js';
import { CommandSubjects } from '../control/commands.contract.js';
import {
  CHARGE_POINT_PRESENCE_BUCKET,
  GATEWAY_INSTANCES_BUCKET,
} from '../ocpp-gateway/charge-point-presence.contract.js';
import { OcppCallEventSubjects } from '../ocpp-gateway/ocpp-call.contract.js';
import { OcppGatewaySubjects } from '../ocpp-gateway/ocpp-gateway.subjects.js';
import { WebhookBroadcastSubjects, WebhookSubjects } from '../webhooks/webhooks.contract.js';

/**
 * What each NATS user may do, as the broker enforces it (nats-server's `authorization` block is generated from this,
 * see natsServerAuthorization). One user per service; every replica of a service logs in as it. Anything not listed
 * here is refused by the broker, which logs a "Publish Violation" or "Subscription Violation".
 *
 * Adding a subject: put it in the subjects constant of its owner as usual, then list it here under the service that
 * answers or consumes it (`answers`, `listens`, `durableConsumers`, `followsEvents`) and under every service that
 * sends it (`calls`, `broadcasts`, `publishesEvents`), and run `npm run nats:config` for the deployment files (a spec
 * fails while they are stale). The end-to-end platform runs with these permissions and fails on any violation.
 */
export interface NatsUserGrants {
  /** Request/reply subjects it answers (Nest handlers); its replies go out under `allow_responses`. */
  answers: readonly string[];
  /** Request/reply subjects of other services it calls; the replies arrive on its own inbox prefix. */
  calls: readonly string[];
  /** Core-NATS subjects it publishes without expecting a reply (broadcasts). */
  broadcasts: readonly string[];
  /** Core-NATS subjects it subscribes to besides `answers` (broadcasts it hears). */
  listens: readonly string[];
  /** Durable events it publishes on the event stream (JetStream publish). */
  publishesEvents: readonly string[];
  /** Its durable consumers on the event stream: name and filter exactly as the service creates them. */
  durableConsumers: readonly { name: string; filterSubject: string }[];
  /** Event subjects it follows with an ordered (ephemeral, per-instance) consumer. */
  followsEvents: readonly string[];
  /** Key-value buckets it creates, reads and writes. */
  kvBuckets: readonly string[];
}

const NOTHING: NatsUserGrants = {
  answers: [],
  calls: [],
  broadcasts: [],
  listens: [],
  publishesEvents: [],
  durableConsumers: [],
  followsEvents: [],
  kvBuckets: [],
};

/** The assets subjects api-gateway forwards HTTP requests to: all but the events and the internal requests. */
const ASSET_API_SUBJECTS = Object.values(AssetsSubjects).filter(
  (subject) =>
    subject !== AssetsSubjects.authenticateChargePoint &&
    subject !== AssetsSubjects.controllersExist &&
    subject !== AssetsSubjects.controllerSettingLimits &&
    !subject.startsWith('events.'),
);

export const NATS_USERS = {
  'api-gateway': {
    ...NOTHING,
    calls: [
      AuthSubjects.issueToken,
      AuthSubjects.refreshToken,
      AuthSubjects.listSigningKeys,
      AuthSubjects.listRevocations,
      ...Object.values(AuthAdminSubjects),
      ...ASSET_API_SUBJECTS,
      ...AUTHORIZATION_API_SUBJECTS,
      CommandSubjects.create,
      CommandSubjects.list,
      CommandSubjects.get,
      ...Object.values(ChargingSessionSubjects),
      ...Object.values(ReservationSubjects),
      ...Object.values(WebhookSubjects),
    ],
    listens: [AuthSubjects.signingKeysChanged, AuthSubjects.accountsRevoked],
    kvBuckets: [API_RATE_LIMITS_BUCKET],
  },
  'auth-service': {
    ...NOTHING,
    // Only auth-service may answer these: whoever answers listSigningKeys decides which tokens are valid.
    answers: [
      AuthSubjects.issueToken,
      AuthSubjects.refreshToken,
      AuthSubjects.listSigningKeys,
      AuthSubjects.resolveTenant,
      AuthSubjects.listRevocations,
      ...Object.values(AuthAdminSubjects),
    ],
    // The admin CLI (same user) announces key changes and revocations too.
    broadcasts: [
      AuthSubjects.signingKeysChanged,
      AuthSubjects.accountsRevoked,
      AuthSubjects.tenantSettingsChanged,
    ],
    listens: [AuthSubjects.signingKeysChanged],
  },
  'assets-service': {
    ...NOTHING,
    answers: [
      AssetsSubjects.authenticateChargePoint,
      AssetsSubjects.controllersExist,
      AssetsSubjects.controllerSettingLimits,
      ...ASSET_API_SUBJECTS,
      ...AUTHORIZATION_API_SUBJECTS,
      AuthorizationSubjects.idTokenSnapshot,
      AuthorizationSubjects.idTokenRevisions,
      AuthorizationSubjects.localListPage,
      AuthorizationSubjects.localListAnswered,
      AuthorizationSubjects.idTokensExist,
    ],
    broadcasts: [AuthorizationSubjects.idTokensChanged],
    publishesEvents: [AssetsSubjects.controllerDeleted, AssetsSubjects.controllerCredentialsChanged],
    durableConsumers: [
      { name: 'assets-service_charge-point-state', filterSubject: 'events.charge-point.>' },
      { name: 'assets-service_controller-events', filterSubject: 'events.charge-point.>' },
      // Configuration: the answers to configuration commands and the parts of 2.0.1 reports.
      { name: 'assets-service_ocpp-call-answers', filterSubject: OcppCallEventSubjects.completed },
      { name: 'assets-service_charge-point-reports', filterSubject: ChargePointEventSubjects.report },
      {
        name: 'assets-service_authorization-decision-batches',
        filterSubject: AuthorizationSubjects.decisionsMade,
      },
    ],
  },
  'command-service': {
    ...NOTHING,
    answers: [
      CommandSubjects.create,
      CommandSubjects.list,
      CommandSubjects.get,
      ...Object.values(ChargingSessionSubjects),
      ...Object.values(ReservationSubjects),
    ],
    calls: [
      AssetsSubjects.controllersExist,
      AssetsSubjects.controllerSettingLimits,
      AssetsSubjects.getPlug,
      AssetsSubjects.listPlugs,
      AuthorizationSubjects.idTokensExist,
      // The calls to the charge points, through the gateway instance holding each one's socket.
      OcppGatewaySubjects.call('*'),
    ],
    // A charge point's new connection: a delivery waiting on its old one is asked again at once.
    listens: [OcppGatewaySubjects.connectionOpened('*')],
    publishesEvents: [CommandSubjects.statusChanged],
    durableConsumers: [
      { name: 'command-service_charging-sessions', filterSubject: 'events.charge-point.>' },
      { name: 'command-service_charge-point-connections', filterSubject: ChargePointEventSubjects.connected },
      { name: 'command-service_controller-deletions', filterSubject: AssetsSubjects.controllerDeleted },
      { name: 'command-service_ocpp-calls', filterSubject: 'events.ocpp-gateway.>' },
      { name: 'command-service_meter-values', filterSubject: TelemetryEventSubjects.meterValues },
    ],
    followsEvents: [AssetsSubjects.controllerDeleted],
  },
  'ocpp-gateway': {
    ...NOTHING,
    // Only the gateway may take calls meant for charge points.
    answers: [OcppGatewaySubjects.call('*')],
    calls: [
      AuthSubjects.resolveTenant,
      AssetsSubjects.authenticateChargePoint,
      AuthorizationSubjects.idTokenSnapshot,
      AuthorizationSubjects.idTokenRevisions,
      AuthorizationSubjects.localListPage,
      AuthorizationSubjects.localListAnswered,
    ],
    broadcasts: [OcppGatewaySubjects.connectionOpened('*')],
    listens: [
      OcppGatewaySubjects.connectionOpened('*'),
      AuthSubjects.tenantSettingsChanged,
      AuthorizationSubjects.idTokensChanged,
    ],
    publishesEvents: [
      ...Object.values(ChargePointEventSubjects),
      ...Object.values(OcppCallEventSubjects),
      ...Object.values(TelemetryEventSubjects),
      AuthorizationSubjects.decisionsMade,
    ],
    followsEvents: [AssetsSubjects.controllerDeleted, AssetsSubjects.controllerCredentialsChanged],
    kvBuckets: [
      CHARGE_POINT_PRESENCE_BUCKET,
      GATEWAY_INSTANCES_BUCKET,
      'ocpp_command_deliveries',
      'ocpp16_transaction_ids',
    ],
  },
  'webhook-service': {
    ...NOTHING,
    answers: Object.values(WebhookSubjects),
    // The location of a controller (location filters); the plug of a connector (`plug_uuid` in webhooks).
    calls: [AssetsSubjects.getController, AssetsSubjects.listPlugs],
    // Its replicas tell each other of subscription changes (their in-memory index of enabled subscriptions).
    broadcasts: [WebhookBroadcastSubjects.subscriptionChanged],
    listens: [WebhookBroadcastSubjects.subscriptionChanged],
    durableConsumers: [
      { name: 'webhook-service_charge-point-events', filterSubject: 'events.charge-point.>' },
      { name: 'webhook-service_command-status', filterSubject: CommandSubjects.statusChanged },
    ],
  },
  /**
   * `npm run bench`: watches command status events and meter-value events (when the gateway received each message)
   * as they are published, nothing else.
   */
  bench: { ...NOTHING, listens: [CommandSubjects.statusChanged, TelemetryEventSubjects.meterValues] },
} as const satisfies Record<string, NatsUserGrants>;

export type NatsUserName = keyof typeof NATS_USERS;
export const NATS_USER_NAMES = Object.keys(NATS_USERS) as NatsUserName[];

/** The users of the deployed platform (docker-compose.yml, Kubernetes): the services, not the development tools. */
export const NATS_SERVICE_USERS = [
  'api-gateway',
  'auth-service',
  'assets-service',
  'command-service',
  'ocpp-gateway',
  'webhook-service',
] as const satisfies readonly NatsUserName[];

/**
 * Each user's private inbox prefix (nats.js `inboxPrefix`): replies to its requests, JetStream API answers and pulled
 * messages arrive below it, and no other user may subscribe there, so nobody reads another service's replies.
 */
export function natsInboxPrefix(user: string): string {
  return `_INBOX_${user}`;
}
