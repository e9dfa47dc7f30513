import type { ListPagination, SortDirection } from '../assets/asset-list.contract.js';

/**
 * Charging sessions: the transactions charge points report through the ocpp-gateway, kept by command-service
 * (schema `control`). They are the `charging_session` targets of commands. Request/reply subjects take a
 * `TenantScopedRequest<payload>`; another tenant's session answers not_found like a missing one.
 */
export const ChargingSessionSubjects = {
  /** ListChargingSessionsPayload → ChargingSessionPage */
  list: 'control.charging-session.list.v1',
  /** GetChargingSessionPayload → ChargingSessionView */
  get: 'control.charging-session.get.v1',
  /** ListMeterValuesPayload → MeterValuePage */
  listMeterValues: 'control.charging-session.meter-values.list.v1',
} as const;

/** `active` until the charge point reports the end of the transaction. */
export const CHARGING_SESSION_STATUSES = ['active', 'completed'] as const;
export type ChargingSessionStatus = (typeof CHARGING_SESSION_STATUSES)[number];

export const CHARGING_SESSION_SORT_FIELDS = ['started_at', 'created_at'] as const;
export type ChargingSessionSortField = (typeof CHARGING_SESSION_SORT_FIELDS)[number];

export interface ChargingSessionFilter {
  controller_uuid?: string;
  plug_uuid?: string;
  status?: ChargingSessionStatus;
  id_tag?: string;
  ocpp_transaction_id?: string;
  /** ISO 8601: sessions started at or after. */
  started_from?: string;
  /** ISO 8601: sessions started before. */
  started_to?: string;
}

export interface ListChargingSessionsPayload {
  page: number;
  limit: number;
  /** In priority order; default newest start first. */
  orderBy: { field: ChargingSessionSortField; direction: SortDirection }[];
  filter: ChargingSessionFilter;
  /** Read by cursor (keyset) instead of by page number. */
  cursor?: string;
}

export interface GetChargingSessionPayload {
  uuid: string;
}

/** Date-times are ISO 8601 UTC with seconds precision and `Z`; energy in Wh. */
export interface ChargingSessionView {
  uuid: string;
  controller_uuid: string;
  /** Null until the plug is known (a 2.0.1 transaction can start before a cable is plugged in). */
  plug_uuid: string | null;
  /** As the charge point numbers it (1.6 across the charge point, 2.0.1 within the EVSE); null when unknown. */
  connector_id: number | null;
  evse_id: number | null;
  /** 1.6: the integer the gateway assigned, as a string; 2.0.1: the charge point's transactionId. */
  ocpp_transaction_id: string;
  id_tag: string | null;
  status: ChargingSessionStatus;
  started_at: string | null;
  stopped_at: string | null;
  meter_start_wh: number | null;
  meter_stop_wh: number | null;
  /** Stop (or, while active, latest) meter reading minus the start reading; null while either is unknown. */
  energy_wh: number | null;
  /** As the charge point sent it (e.g. `Local`, `EVDisconnected`), or `superseded` / `charge_point_rebooted`. */
  stop_reason: string | null;
  /** Highest Power.Active.Import the charge point reported for the whole session (no phase), W. */
  peak_power_w: number | null;
  /** Time of the latest sampled value of the session. */
  last_sample_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A session's meter values, oldest first; filter by measurand and sample time. */
export interface ListMeterValuesPayload {
  uuid: string;
  page: number;
  limit: number;
  filter: { measurand?: string; sampled_from?: string; sampled_to?: string };
  /** Read by cursor (keyset) instead of by page number. */
  cursor?: string;
}

export interface MeterValueView {
  sampled_at: string;
  measurand: string;
  phase: string | null;
  location: string;
  unit: string;
  context: string;
  value: number;
  evse_id: number | null;
  connector_id: number | null;
}

export interface MeterValuePage {
  items: MeterValueView[];
  pagination: ListPagination;
}

export interface ChargingSessionPage {
  items: ChargingSessionView[];
  pagination: ListPagination;
}
