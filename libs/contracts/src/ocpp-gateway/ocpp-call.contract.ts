import type { ControllerSettingLimits } from '../assets/controller-configuration.contract.js';
import type { EventEnvelope } from '../events/event-stream.js';

/**
 * Delivering a platform command to a charge point: a NATS request on `OcppGatewaySubjects.call(controllerUuid)`
 * with an OcppCallRequest as plain JSON; the reply is an OcppCallReply as plain JSON. Use the raw NATS client
 * (`nc.request`), not Nest's ClientProxy: a "no responders" error is the signal that no gateway instance holds the
 * charge point (offline), and Nest's transport would turn it into a timeout.
 *
 * Reply time: at most about 2 × OCPP_CALL_TIMEOUT_MS (waiting for the previous call to the same charge point, then
 * this one's answer), so the requester's timeout must be larger (e.g. 2 × the call timeout + 5 s).
 *
 * At most once: the gateway records every command uuid it sends in a NATS KV bucket before sending it. A repeated
 * request (the requester restarted, retried, or the charge point moved to another instance meanwhile) is never sent
 * again: it gets the recorded reply, or `connection_lost` when the first attempt never finished (its instance died).
 * Every final reply is also published durably as OcppCallCompletedEvent, so a requester that restarted while
 * waiting learns the outcome from the event stream.
 */
export interface OcppCallRequest {
  commandUuid: string;
  /** A platform command type (soft_reset, unlock, …; `@cpc/ocpp-commands` COMMAND_TYPES). */
  type: string;
  /** The command's `parameters` as stored at creation (snake_case); absent or null = none. */
  parameters?: unknown;
  target: OcppCallTarget;
  /** ISO 8601 creation time of the command: the "now" of time-dependent defaults, so every build is identical. */
  createdAt?: string;
  /**
   * change_configuration and refresh_configuration: the charge point's limits as its stored configuration reports
   * them. On 2.0.1 a SetVariables/GetVariables larger than its ItemsPerMessage/BytesPerMessage goes as several calls
   * whose answers become one reply; absent = not known (`@cpc/ocpp-commands` DEFAULT_ITEMS_PER_MESSAGE).
   */
  messageLimits?: ControllerSettingLimits;
}

/** The resolved target (same shape as `@cpc/ocpp-commands` ResolvedTarget). */
export type OcppCallTarget =
  | { targetType: 'controller' }
  /**
   * A plug: `connectorId` as a 1.6 charge point numbers it (station-wide); `evseId` is required on 2.0.1, where the
   * connector is numbered within its EVSE: `evseConnectorId` (the plug's rank by connector id among its EVSE's plugs),
   * `connectorId` when absent.
   */
  | { targetType: 'connector'; connectorId: number; evseId?: number | null; evseConnectorId?: number | null }
  /** A transaction: on 1.6 the integer the gateway assigned, as a string. */
  | {
      targetType: 'charging_session';
      transactionId: string;
      connectorId?: number | null;
      evseId?: number | null;
    };

/**
 * How delivery ended, and so how the command ends (docs/spec/ocpp-mapping.md):
 * - `answered`: the charge point replied; `status` accepted/rejected and `resultStatus` (its status string or a
 *   documented stand-in) come from `@cpc/ocpp-commands` classifyOcppResponse. `response` is the reply as sent.
 * - `invalid_response`: it replied with something that is not a valid reply (schema or content) → failed,
 *   `result.error = invalid_response`.
 * - `call_error`: it answered with a CALLERROR → failed, `result.error = error` (`ocpp_not_implemented`, …).
 * - `timeout`: sent, no answer within the call timeout → timeout.
 * - `connection_lost`: sent (or possibly sent) and the connection dropped before the answer → failed.
 * - `invalid_command`: the command cannot become a valid OCPP call for this charge point (`error` is
 *   `invalid_target` or `invalid_parameters`) → failed; nothing was sent.
 * - `not_sent`: nothing reached the charge point and nothing was recorded (the previous call to it did not finish
 *   within the call timeout, the socket closed first, the gateway is shutting down or cannot record the delivery):
 *   try again while the command is valid.
 */
export type OcppCallReply =
  | {
      outcome: 'answered';
      action: string;
      /**
       * The reply as received. Several calls: 1.6 change_configuration `{responses: [each reply in order, null for a
       * key not answered]}`; a 2.0.1 SetVariables/GetVariables sent in parts, one reply with the results of every
       * answered part; a send_local_list in several SendLocalList messages (or followed by a full update after a
       * VersionMismatch), `{responses: [each answer in order]}`.
       */
      response: unknown;
      status: 'accepted' | 'rejected';
      resultStatus: string;
      /** change_configuration: each setting sent with the charge point's answer about it, in order. */
      settings?: ConfigurationSettingResult[];
      /**
       * send_local_list: how many SendLocalList parts of the update sent last (the full update after a
       * VersionMismatch) the charge point accepted, from the first (assets-service records the list they leave).
       */
      localListPartsAccepted?: number;
    }
  | { outcome: 'invalid_response'; action: string; description: string }
  | { outcome: 'call_error'; action: string; code: string; description: string; error: string }
  | { outcome: 'timeout'; action: string }
  | { outcome: 'connection_lost'; action: string | null }
  | { outcome: 'invalid_command'; error: 'invalid_target' | 'invalid_parameters'; description: string }
  | {
      outcome: 'not_sent';
      reason:
        'charge_point_busy' | 'charge_point_disconnected' | 'gateway_shutting_down' | 'delivery_not_recorded';
      description: string;
    };

export type OcppCallOutcome = OcppCallReply['outcome'];

/**
 * One setting of a change_configuration with the charge point's answer (`status`: 1.6 ChangeConfiguration status, 2.0.1
 * setVariableResult attributeStatus: Accepted, Rejected, RebootRequired, NotSupported, UnknownComponent, …). 1.6
 * names a `key`; 2.0.1 a component and variable (with instances, EVSE and attribute type when given). snake_case: it
 * is shown in the API as `result.settings`.
 */
export interface ConfigurationSettingResult {
  key?: string;
  component?: string;
  component_instance?: string;
  evse_id?: number;
  connector_id?: number;
  variable?: string;
  variable_instance?: string;
  attribute_type?: string;
  value: string;
  status: string;
}

/** Durable events of the ocpp-gateway about platform calls (on the platform's event stream). */
export const OcppCallEventSubjects = {
  /** OcppCallCompletedEvent: a delivered (or undeliverable) command's final reply; not for `not_sent`. */
  completed: 'events.ocpp-gateway.call-completed.v1',
  /**
   * OcppCallSentEvent: the call went out to the charge point (the moment ocpp-rpc wrote it to the socket). Published
   * only for a call still unanswered after the gateway's OCPP_CALL_SENT_EVENT_DELAY_MS (a call answered sooner has
   * just its call-completed event, whose `sentAt` says when it went out), and without waiting, so it may arrive after
   * the call-completed event of the same command.
   */
  sent: 'events.ocpp-gateway.call-sent.v1',
} as const;

export type OcppCallSentEvent = EventEnvelope<{
  commandUuid: string;
  controllerUuid: string;
  /** ISO 8601. */
  sentAt: string;
}>;

export type OcppCallCompletedEvent = EventEnvelope<{
  commandUuid: string;
  controllerUuid: string;
  /** ISO 8601, when the call went out; null when it was never sent (invalid_command). */
  sentAt: string | null;
  reply: OcppCallReply;
}>;
