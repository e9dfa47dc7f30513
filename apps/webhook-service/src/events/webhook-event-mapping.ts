import {
  chargingSessionUuidOf,
  type ChargePointConnectedEvent,
  type ChargePointDisconnectedEvent,
  ChargePointEventSubjects,
  type CommandStatusChangedEvent,
  CommandSubjects,
  type ConnectorStatusEvent,
  type EventEnvelope,
  type TransactionEndedEvent,
  type TransactionStartedEvent,
  type TransactionUpdatedEvent,
  isUuid,
  leaveOutUnsetFields,
  type WebhookEventType,
} from '@cpc/contracts';

/** One platform event as webhooks see it. */
export interface WebhookEvent {
  type: WebhookEventType;
  /** Events with the same key reach a subscription in the order they happened: `controller:<uuid>`, `command:<uuid>`. */
  orderingKey: string;
  /** The controller it is about, for subscriptions filtered by controller or location. */
  controllerUuid: string;
  data: Record<string, unknown>;
  /** Set on charging_session.updated: the session it belongs to (at most one a minute each). */
  session?: { transactionId: string; ended: boolean };
  /** The connector whose plug (assets-service) goes into `data.plug_uuid`: looked up before the rows are written. */
  plugOf?: { connectorId: number | null; evseId: number | null };
}

/** The command as GET /api/v1/control/commands/{uuid} answers it: unset fields (result, completed_at) left out. */
function withoutUnsetFields(command: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(command, leaveOutUnsetFields)) as Record<string, unknown>;
}

/** The webhook body: Standard Webhooks' `{type, timestamp, data}`. */
export function webhookBody(type: string, timestamp: string, data: unknown): string {
  return JSON.stringify({ type, timestamp, data });
}

/** The webhook event a platform event stands for, or null when webhooks have none for it (or it is malformed). */
export function toWebhookEvent(subject: string, event: EventEnvelope<unknown>): WebhookEvent | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  if (subject === CommandSubjects.statusChanged) {
    const changed = data as CommandStatusChangedEvent['data'];
    const commandUuid = changed.command?.command_uuid;
    if (!isUuid(commandUuid) || !isUuid(changed.controllerUuid)) return null;
    return {
      type: 'command.status_changed',
      orderingKey: `command:${commandUuid}`,
      controllerUuid: changed.controllerUuid,
      data: {
        command: withoutUnsetFields(changed.command),
        previous_status: changed.previousStatus ?? null,
        controller_uuid: changed.controllerUuid,
      },
    };
  }
  const controllerUuid = data.controllerUuid;
  if (!isUuid(controllerUuid)) return null;
  /** The platform's uuid of the session of a transaction, as command-service keeps it. */
  const sessionUuid = (transactionId: unknown) =>
    typeof transactionId === 'string' && isUuid(event.tenantUuid)
      ? chargingSessionUuidOf(event.tenantUuid, controllerUuid, transactionId)
      : null;
  const base = { orderingKey: `controller:${controllerUuid}`, controllerUuid };
  const controller = { controller_uuid: controllerUuid, ocpp_identity: data.ocppIdentity ?? null };
  switch (subject) {
    case ChargePointEventSubjects.connected: {
      const connected = event.data as ChargePointConnectedEvent['data'];
      return {
        ...base,
        type: 'controller.connection_changed',
        data: {
          ...controller,
          connection_status: 'online',
          protocol: connected.protocol ?? null,
          changed_at: connected.connectedAt ?? event.occurredAt,
          reason: null,
        },
      };
    }
    case ChargePointEventSubjects.disconnected: {
      const disconnected = event.data as ChargePointDisconnectedEvent['data'];
      return {
        ...base,
        type: 'controller.connection_changed',
        data: {
          ...controller,
          connection_status: 'offline',
          protocol: null,
          changed_at: disconnected.disconnectedAt ?? event.occurredAt,
          reason: disconnected.reason ?? null,
        },
      };
    }
    case ChargePointEventSubjects.connectorStatus: {
      const status = event.data as ConnectorStatusEvent['data'];
      // Connector 0 on OCPP 1.6 is the charge point itself, not a plug.
      if (status.evseId === null && status.connectorId === 0) return null;
      return {
        ...base,
        type: 'plug.status_changed',
        plugOf: { connectorId: status.connectorId, evseId: status.evseId ?? null },
        data: {
          ...controller,
          plug_uuid: null,
          connector_id: status.connectorId,
          evse_id: status.evseId ?? null,
          status: status.status,
          error_code: status.errorCode ?? null,
          reported_at: status.reportedAt ?? event.occurredAt,
        },
      };
    }
    case ChargePointEventSubjects.transactionStarted: {
      const started = event.data as TransactionStartedEvent['data'];
      return {
        ...base,
        type: 'charging_session.started',
        plugOf: { connectorId: started.connectorId ?? null, evseId: started.evseId ?? null },
        data: {
          ...controller,
          charging_session_uuid: sessionUuid(started.transactionId),
          plug_uuid: null,
          ocpp_transaction_id: started.transactionId,
          connector_id: started.connectorId ?? null,
          evse_id: started.evseId ?? null,
          id_tag: started.idTag ?? null,
          meter_start_wh: started.meterStartWh ?? null,
          started_at: started.startedAt ?? event.occurredAt,
        },
      };
    }
    case ChargePointEventSubjects.transactionUpdated: {
      const updated = event.data as TransactionUpdatedEvent['data'];
      if (typeof updated.transactionId !== 'string') return null;
      return {
        ...base,
        type: 'charging_session.updated',
        session: { transactionId: updated.transactionId, ended: false },
        data: {
          ...controller,
          charging_session_uuid: sessionUuid(updated.transactionId),
          ocpp_transaction_id: updated.transactionId,
          meter_wh: updated.meterWh ?? null,
          sampled_at: updated.sampledAt ?? event.occurredAt,
        },
      };
    }
    case ChargePointEventSubjects.transactionEnded: {
      const ended = event.data as TransactionEndedEvent['data'];
      return {
        ...base,
        type: 'charging_session.ended',
        session:
          typeof ended.transactionId === 'string'
            ? { transactionId: ended.transactionId, ended: true }
            : undefined,
        data: {
          ...controller,
          charging_session_uuid: sessionUuid(ended.transactionId),
          ocpp_transaction_id: ended.transactionId,
          meter_stop_wh: ended.meterStopWh ?? null,
          stopped_at: ended.stoppedAt ?? event.occurredAt,
          stop_reason: ended.reason ?? null,
        },
      };
    }
    default:
      return null;
  }
}
