import type { ListPagination } from './asset-list.contract.js';

/**
 * A controller's event log, kept by assets-service from the gateway's charge-point events: what happened to the
 * charge point and when, newest first. `details` holds the event's own fields in snake case.
 */
export const CONTROLLER_EVENT_KINDS = [
  'connected',
  'disconnected',
  'booted',
  'status_changed',
  'firmware_status',
  'diagnostics_status',
  'security_event',
  'authorization_refused',
  'reservation_status',
] as const;
export type ControllerEventKind = (typeof CONTROLLER_EVENT_KINDS)[number];

export interface ControllerEventView {
  /** The event's id (stable across redeliveries). */
  uuid: string;
  kind: ControllerEventKind;
  occurred_at: string;
  details: Record<string, string | number | boolean | null>;
}

export interface ListControllerEventsPayload {
  /** The controller. */
  uuid: string;
  page: number;
  limit: number;
  filter: { kind?: ControllerEventKind; occurred_from?: string; occurred_to?: string };
  /** Read by cursor (keyset) instead of by page number. */
  cursor?: string;
}

/** A page of a controller's events, numbered or read by cursor. */
export interface ControllerEventPage {
  items: ControllerEventView[];
  pagination: ListPagination;
}
