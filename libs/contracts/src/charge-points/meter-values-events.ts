import type { EventEnvelope } from '../events/event-stream.js';

/**
 * Telemetry the ocpp-gateway publishes on the event stream, apart from `events.charge-point.>`: it is the bulk of
 * what a fleet sends, and the consumers of charge-point state should not have to read past it.
 */
export const TelemetryEventSubjects = {
  meterValues: 'events.telemetry.meter-values.v1',
} as const;

/**
 * One sampled value, with OCPP's defaults filled in (measurand Energy.Active.Import.Register, context
 * Sample.Periodic, location Outlet, unit Wh) and 2.0.1's unit multiplier applied to `value`.
 */
export interface MeterSample {
  sampledAt: string;
  measurand: string;
  phase: string | null;
  location: string;
  unit: string;
  context: string;
  value: number;
}

/**
 * The sampled values of one message: 1.6 MeterValues and StopTransaction's transactionData, 2.0.1 MeterValues and
 * TransactionEvent. `transactionId` is null outside a transaction; `connectorId` is 1.6's connector or the connector
 * within 2.0.1's EVSE, null when the message did not name it.
 */
export type MeterValuesEvent = EventEnvelope<{
  controllerUuid: string;
  ocppIdentity: string;
  transactionId: string | null;
  evseId: number | null;
  connectorId: number | null;
  samples: MeterSample[];
}>;
