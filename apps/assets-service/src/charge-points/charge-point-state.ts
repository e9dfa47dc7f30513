import {
  type ChargePointBootedEvent,
  type ChargePointConnectedEvent,
  type ChargePointDisconnectedEvent,
  ChargePointEventSubjects,
  type ConnectorStatusEvent,
  type EventEnvelope,
  UUID_PATTERN,
} from '@cpc/contracts';

/**
 * The live state of controllers and plugs, and how one charge-point event changes it: the rules the state consumer
 * applies, event by event in stream order, to the rows it read (and locked) for a batch. Each change applies only when
 * the event is not older (occurredAt) than what the field already reflects.
 */

/** A plug as the gateway names it: OCPP 1.6 by `connectorId`; 2.0.1 by EVSE and its n-th connector. */
export interface PlugAddress {
  connectorId: number;
  evseId: number | null;
}

export type StateChange =
  | { kind: 'connected'; connectionId: string | null; protocol: string | null }
  | { kind: 'disconnected'; connectionId: string | null }
  | {
      kind: 'booted';
      vendor: string | null;
      model: string | null;
      serialNumber: string | null;
      firmwareVersion: string | null;
    }
  | { kind: 'connector-status'; plug: PlugAddress; status: string; errorCode: string | null }
  /** Only proof that the charge point is there (and what is left of an event whose details do not fit). */
  | { kind: 'seen' };

export interface StateEvent {
  /** Lower case, as PostgreSQL returns uuids. */
  tenantUuid: string;
  controllerUuid: string;
  at: Date;
  change: StateChange;
  /** The part of the event left out because it cannot be stored (logged). */
  leftOut?: string;
}

export interface ControllerState {
  connectionStatus: string;
  connectionId: string | null;
  connectionChangedAt: Date | null;
  ocppProtocol: string | null;
  lastSeenAt: Date | null;
  vendor: string | null;
  model: string | null;
  serialNumber: string | null;
  firmwareVersion: string | null;
  bootedAt: Date | null;
}

export interface PlugState {
  uuid: string;
  connectorId: number;
  evseId: number;
  status: string;
  errorCode: string | null;
  statusUpdatedAt: Date | null;
}

/** The earliest instant PostgreSQL's timestamptz holds (4714-11-24 BC). */
const EARLIEST_TIMESTAMP = Date.UTC(-4713, 10, 24);
const MAX_INTEGER = 2 ** 31 - 1;

/** The columns' lengths: a longer value cannot be stored, so it is never applied (nor retried). */
const LIMITS = { connectionId: 100, protocol: 16, bootField: 255, status: 50, errorCode: 50 } as const;

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Whether PostgreSQL stores `value` in a varchar(`max`): characters, not UTF-16 units, and no NUL. */
function fits(value: string | null, max: number): boolean {
  return value === null || (!value.includes('\u0000') && [...value].length <= max);
}

/** The event as the state consumer applies it; a string (why) when it is malformed and applies nowhere. */
export function readStateEvent(subject: string, event: EventEnvelope<unknown>): StateEvent | string {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const at = new Date(event.occurredAt);
  if (typeof event.tenantUuid !== 'string' || !UUID_PATTERN.test(event.tenantUuid)) return 'no tenant uuid';
  if (typeof data.controllerUuid !== 'string' || !UUID_PATTERN.test(data.controllerUuid)) {
    return 'no controller uuid';
  }
  if (Number.isNaN(at.getTime()) || at.getTime() < EARLIEST_TIMESTAMP) return 'no occurredAt';
  const base = {
    tenantUuid: event.tenantUuid.toLowerCase(),
    controllerUuid: data.controllerUuid.toLowerCase(),
    at,
  };
  switch (subject) {
    case ChargePointEventSubjects.connected: {
      const connected = data as Partial<ChargePointConnectedEvent['data']>;
      const connectionId = stringOrNull(connected.connectionId);
      const protocol = stringOrNull(connected.protocol);
      if (!fits(connectionId, LIMITS.connectionId) || !fits(protocol, LIMITS.protocol)) {
        return 'connection id or protocol too long';
      }
      return { ...base, change: { kind: 'connected', connectionId, protocol } };
    }
    case ChargePointEventSubjects.disconnected: {
      const disconnected = data as Partial<ChargePointDisconnectedEvent['data']>;
      return {
        ...base,
        change: { kind: 'disconnected', connectionId: stringOrNull(disconnected.connectionId) },
      };
    }
    case ChargePointEventSubjects.booted: {
      const booted = data as Partial<ChargePointBootedEvent['data']>;
      const fields = {
        vendor: stringOrNull(booted.vendor),
        model: stringOrNull(booted.model),
        serialNumber: stringOrNull(booted.serialNumber),
        firmwareVersion: stringOrNull(booted.firmwareVersion),
      };
      if (!Object.values(fields).every((value) => fits(value, LIMITS.bootField))) {
        return { ...base, change: { kind: 'seen' }, leftOut: 'boot fields too long' };
      }
      return { ...base, change: { kind: 'booted', ...fields } };
    }
    case ChargePointEventSubjects.connectorStatus: {
      const status = data as Partial<ConnectorStatusEvent['data']>;
      const connectorId = Number(status.connectorId);
      const evseId = status.evseId === null || status.evseId === undefined ? null : Number(status.evseId);
      const errorCode = stringOrNull(status.errorCode);
      if (
        !Number.isSafeInteger(connectorId) ||
        connectorId < 1 ||
        connectorId > MAX_INTEGER ||
        typeof status.status !== 'string' ||
        !fits(status.status.slice(0, LIMITS.status), LIMITS.status) ||
        (evseId !== null && (!Number.isSafeInteger(evseId) || Math.abs(evseId) > MAX_INTEGER)) ||
        !fits(errorCode, LIMITS.errorCode)
      ) {
        // Connector 0 of OCPP 1.6 (the charge point itself) among them: no plug, nothing to log.
        return { ...base, change: { kind: 'seen' } };
      }
      return {
        ...base,
        change: {
          kind: 'connector-status',
          plug: { connectorId, evseId },
          status: status.status.slice(0, LIMITS.status),
          errorCode,
        },
      };
    }
    default:
      // Transactions, firmware, diagnostics, security events: only proof that the charge point is there.
      return { ...base, change: { kind: 'seen' } };
  }
}

const notAfter = (stored: Date | null, at: Date) => stored === null || stored.getTime() <= at.getTime();

/** The controller after `event` (the same object when nothing changes). */
export function applyToController(state: ControllerState, event: StateEvent): ControllerState {
  const { change, at } = event;
  switch (change.kind) {
    case 'connected':
      if (!notAfter(state.connectionChangedAt, at)) return state;
      return {
        ...state,
        connectionStatus: 'online',
        connectionId: change.connectionId,
        ocppProtocol: change.protocol,
        connectionChangedAt: at,
        lastSeenAt:
          state.lastSeenAt !== null && state.lastSeenAt.getTime() > at.getTime() ? state.lastSeenAt : at,
      };
    case 'disconnected':
      // A disconnect of a connection that another one replaced already leaves the controller online.
      if (!notAfter(state.connectionChangedAt, at)) return state;
      if (
        change.connectionId !== null &&
        state.connectionId !== null &&
        state.connectionId !== change.connectionId
      ) {
        return state;
      }
      return { ...state, connectionStatus: 'offline', connectionId: null, connectionChangedAt: at };
    case 'booted': {
      const seen = touch(state, at);
      if (!notAfter(seen.bootedAt, at)) return seen;
      const { vendor, model, serialNumber, firmwareVersion } = change;
      return { ...seen, vendor, model, serialNumber, firmwareVersion, bootedAt: at };
    }
    default:
      return touch(state, at);
  }
}

/** The charge point was heard from. */
function touch(state: ControllerState, at: Date): ControllerState {
  if (state.lastSeenAt !== null && state.lastSeenAt.getTime() >= at.getTime()) return state;
  return { ...state, lastSeenAt: at };
}

/**
 * The plug a connector status names among the controller's plugs. OCPP 1.6 numbers connectors across the charge
 * point (0 = the charge point itself, which is no plug); OCPP 2.0.1 numbers them within an EVSE, so there the plug is
 * the n-th (by connector_id) of the plugs with that evse_id.
 */
export function plugOf(plugs: readonly PlugState[], address: PlugAddress): PlugState | undefined {
  if (address.evseId === null) return plugs.find((plug) => plug.connectorId === address.connectorId);
  return plugs.filter((plug) => plug.evseId === address.evseId).sort((a, b) => a.connectorId - b.connectorId)[
    address.connectorId - 1
  ];
}

/** The plug after a connector status at `at` (the same object when nothing changes). */
export function applyToPlug(
  state: PlugState,
  at: Date,
  change: Extract<StateChange, { kind: 'connector-status' }>,
): PlugState {
  if (!notAfter(state.statusUpdatedAt, at)) return state;
  return { ...state, status: change.status, errorCode: change.errorCode, statusUpdatedAt: at };
}
