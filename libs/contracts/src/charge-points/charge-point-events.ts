import type { EventEnvelope } from '../events/event-stream.js';

/** Durable events the ocpp-gateway publishes about charge points (consumed by assets-service and command-service). */
export const ChargePointEventSubjects = {
  connected: 'events.charge-point.connected.v1',
  disconnected: 'events.charge-point.disconnected.v1',
  booted: 'events.charge-point.booted.v1',
  connectorStatus: 'events.charge-point.connector-status.v1',
  transactionStarted: 'events.charge-point.transaction-started.v1',
  transactionUpdated: 'events.charge-point.transaction-updated.v1',
  transactionEnded: 'events.charge-point.transaction-ended.v1',
  firmwareStatus: 'events.charge-point.firmware-status.v1',
  diagnosticsStatus: 'events.charge-point.diagnostics-status.v1',
  securityEvent: 'events.charge-point.security-event.v1',
  /** One part of a 2.0.1 NotifyReport (answer to GetBaseReport/GetReport); parts share `requestId`. */
  report: 'events.charge-point.report.v1',
  /** 2.0.1 ReservationStatusUpdate: a reservation ended on the station (expired, or removed there). */
  reservationStatus: 'events.charge-point.reservation-status.v1',
} as const;

export type OcppProtocol = 'ocpp1.6' | 'ocpp2.0.1';

interface ChargePointRef {
  controllerUuid: string;
  ocppIdentity: string;
}

/**
 * `connectionId` names one WebSocket connection (unique per connection, e.g. a UUID). When a second connection of the
 * same identity replaces the first, the first one's disconnect arrives after the second one's connect; with the id,
 * assets-service ignores a disconnect of a connection the controller is no longer known by. Without it, events are
 * applied by time alone.
 */
interface ConnectionRef {
  connectionId?: string;
}

export type ChargePointConnectedEvent = EventEnvelope<
  ChargePointRef & ConnectionRef & { protocol: OcppProtocol; gatewayInstance: string; connectedAt: string }
>;
/** `closeCode`: the WebSocket close code, when the socket was closed (not when its gateway instance was lost). */
export type ChargePointDisconnectedEvent = EventEnvelope<
  ChargePointRef &
    ConnectionRef & {
      gatewayInstance: string;
      disconnectedAt: string;
      reason: string;
      closeCode?: number | null;
    }
>;
export type ChargePointBootedEvent = EventEnvelope<
  ChargePointRef & {
    vendor: string;
    model: string;
    serialNumber: string | null;
    firmwareVersion: string | null;
  }
>;
/** `connectorId` 0 (1.6) means the whole charge point; `evseId` is set on 2.0.1. `status` is as the charge point sent it. */
export type ConnectorStatusEvent = EventEnvelope<
  ChargePointRef & {
    connectorId: number;
    evseId: number | null;
    status: string;
    errorCode: string | null;
    reportedAt: string;
  }
>;
export type TransactionStartedEvent = EventEnvelope<
  ChargePointRef & {
    /** 1.6: the integer the gateway assigned, as a string; 2.0.1: the charge point's transactionId. */
    transactionId: string;
    connectorId: number;
    evseId: number | null;
    idTag: string | null;
    meterStartWh: number | null;
    startedAt: string;
    /** The reservation the transaction used (1.6 StartTransaction / 2.0.1 TransactionEvent `reservationId`). */
    reservationId?: number | null;
  }
>;
/**
 * Where a later message of a transaction says it runs (2.0.1 `evse`, which the start may have left out): the EVSE and,
 * when named, its connector. Absent on 1.6, whose start always names the connector.
 */
interface TransactionLocation {
  evseId?: number | null;
  connectorId?: number | null;
}

/** `meterWh` null: the message carried no energy reading, only the transaction's EVSE / connector, reservation or id token. */
export type TransactionUpdatedEvent = EventEnvelope<
  ChargePointRef &
    TransactionLocation & {
      transactionId: string;
      meterWh: number | null;
      sampledAt: string;
      /** 2.0.1: the reservation the transaction used, when this message names it. */
      reservationId?: number | null;
      /**
       * 2.0.1: the id token this message carries (a transaction that started before authorization, TxStartPoint
       * EVConnected, names it first in an Updated with triggerReason Authorized).
       */
      idTag?: string | null;
    }
>;
export type TransactionEndedEvent = EventEnvelope<
  ChargePointRef &
    TransactionLocation & {
      transactionId: string;
      meterStopWh: number | null;
      stoppedAt: string;
      reason: string | null;
    }
>;

/** 1.6 FirmwareStatusNotification / SignedFirmwareStatusNotification, 2.0.1 FirmwareStatusNotification. */
export type FirmwareStatusEvent = EventEnvelope<
  ChargePointRef & { status: string; requestId: number | null; reportedAt: string }
>;
/** 1.6 DiagnosticsStatusNotification / LogStatusNotification, 2.0.1 LogStatusNotification. */
export type DiagnosticsStatusEvent = EventEnvelope<
  ChargePointRef & { status: string; requestId: number | null; reportedAt: string }
>;
/** SecurityEventNotification (2.0.1, and 1.6 with the security extension); `type` as the charge point sent it. */
export type SecurityEvent = EventEnvelope<
  ChargePointRef & { type: string; techInfo: string | null; reportedAt: string }
>;
/** `reportData` is the 2.0.1 ReportDataType array exactly as the charge point sent it. */
export type ChargePointReportEvent = EventEnvelope<
  ChargePointRef & {
    requestId: number;
    seqNo: number;
    tbc: boolean;
    generatedAt: string;
    reportData: unknown[];
  }
>;
/**
 * 2.0.1 ReservationStatusUpdate: `status` as the station sent it (`Expired`, `Removed`); `reportedAt` is when the
 * gateway received it (the message carries no time).
 */
export type ReservationStatusEvent = EventEnvelope<
  ChargePointRef & { reservationId: number; status: string; reportedAt: string }
>;
