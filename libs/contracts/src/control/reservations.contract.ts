import type { CursorListPayload, ListPagination } from '../assets/asset-list.contract.js';

/**
 * Reservations: what the reserve commands a charge point accepted became, kept by command-service (schema `control`)
 * and followed through what the charge point reports. Request/reply subjects take a `TenantScopedRequest<payload>`;
 * another tenant's reservation answers not_found like a missing one.
 */
export const ReservationSubjects = {
  /** ListReservationsPayload → ReservationPage */
  list: 'control.reservation.list.v1',
  /** GetReservationPayload → ReservationView */
  get: 'control.reservation.get.v1',
} as const;

/**
 * `active` from the charge point's acceptance of the reserve command until one of: `used` (a transaction started
 * with it), `cancelled` (a cancel_reservation it accepted), `expired` (its expiry passed, or the station said so),
 * `removed` (the station removed it, 2.0.1), `replaced` (an accepted reserve with the same reservation id on the same
 * charge point: OCPP replaces the reservation).
 */
export const RESERVATION_STATUSES = [
  'active',
  'used',
  'cancelled',
  'expired',
  'removed',
  'replaced',
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export interface ReservationFilter {
  controller_uuid?: string;
  plug_uuid?: string;
  status?: ReservationStatus;
  id_tag?: string;
  reservation_id?: number;
}

/** Newest first (by created_at); with `cursor`, the page after or before it in that order. */
export interface ListReservationsPayload extends CursorListPayload {
  page: number;
  limit: number;
  filter: ReservationFilter;
}

export interface GetReservationPayload {
  uuid: string;
}

/** Date-times are ISO 8601 UTC with seconds precision and `Z`. */
export interface ReservationView {
  uuid: string;
  controller_uuid: string;
  /** The reserved plug; null when the whole charge point is reserved (a controller target). */
  plug_uuid: string | null;
  /** As the reserve command's target named it (1.6 numbering); null for the whole charge point. */
  connector_id: number | null;
  evse_id: number | null;
  /** The OCPP reservation id sent in ReserveNow. */
  reservation_id: number;
  id_tag: string;
  expires_at: string;
  status: ReservationStatus;
  /** When it stopped being active; null while active. */
  ended_at: string | null;
  /** The session that used it (status `used`), when known. */
  charging_session_uuid: string | null;
  reserve_command_uuid: string;
  cancel_command_uuid: string | null;
  /** When the charge point's acceptance was recorded. */
  created_at: string;
  updated_at: string;
}

export interface ReservationPage {
  items: ReservationView[];
  pagination: ListPagination;
}
