import {
  type ChargePointBootedEvent,
  type ChargePointConnectedEvent,
  type ChargePointDisconnectedEvent,
  ChargePointEventSubjects,
  type ConnectorStatusEvent,
  type EventEnvelope,
  UUID_PATTERN,
} from '@cpc/contracts';
import { isTextOfAtMost, truncateCodePoints } from '../shared/text-limits.js';

/**
 * The live state of controllers and plugs, and how one charge-point event changes it: the rules the state consumer
 * applies, event by event in stream order, to the rows it read (and locked) for a batch. Events are ordered by their
 * key (occurredAt, then stream sequence): a redelivery keeps its sequence, so two events of the same millisecond keep
 * their stream order however often either is delivered. A boot or a plug status applies only when newer (by key) than
 * the one the fields reflect. Connections follow their own rule (applyToController): the controller is online over the
 * connection with the newest connect, unless that connection's disconnect was handled.
 */

/** A disconnect handled before the connect of its connection may be: kept until a newer connect makes it moot. */
export interface RememberedDisconnect {
  /** null: a disconnect naming no connection, about whatever connection was open. */
  connectionId: string | null;
  at: Date;
  sequence: number;
}

/**
 * How many disconnects newer than the known connection's connect a controller remembers: each is a connection whose
 * disconnect was handled before its connect, so more than a few at once means connects that are lost, not late.
 */
export const MAX_REMEMBERED_DISCONNECTS = 8;

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
  /** The event's stream sequence: breaks ties of `at` (stream order), the same on every delivery. */
  sequence: number;
  change: StateChange;
  /** The part of the event left out because it cannot be stored (logged). */
  leftOut?: string;
}

export interface ControllerState {
  connectionStatus: string;
  /** The connection the controller is online over; null while offline. */
  connectionId: string | null;
  /** When the connection status (or connection) last changed. */
  connectionChangedAt: Date | null;
  /** The key of the newest connect applied: the connection the controller is (or was last) known by. */
  connectionOpenedAt: Date | null;
  connectionOpenedSequence: number | null;
  /**
   * The disconnects handled that are newer than the known connection's connect, newest first, the newest of each
   * connection (one naming none stands for every connection before it): a connect older than the disconnect of its
   * connection, handled later, comes in closed. They remember disconnects that overtook their connects (two gateway
   * instances, two replicas of this consumer, redeliveries). At most MAX_REMEMBERED_DISCONNECTS, the oldest forgotten.
   */
  connectionsClosed: readonly RememberedDisconnect[];
  ocppProtocol: string | null;
  lastSeenAt: Date | null;
  vendor: string | null;
  model: string | null;
  serialNumber: string | null;
  firmwareVersion: string | null;
  bootedAt: Date | null;
  bootedSequence: number | null;
}

export interface PlugState {
  uuid: string;
  connectorId: number;
  evseId: number;
  status: string;
  errorCode: string | null;
  statusUpdatedAt: Date | null;
  statusUpdatedSequence: number | null;
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
  return value === null || (!value.includes('\u0000') && isTextOfAtMost(value, max));
}

/** The event as the state consumer applies it; a string (why) when it is malformed and applies nowhere. */
export function readStateEvent(
  subject: string,
  event: EventEnvelope<unknown>,
  sequence = 0,
): StateEvent | string {
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
    sequence,
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
      const connectionId = stringOrNull(disconnected.connectionId);
      // It is remembered by its connection id, and no connect with an id that does not fit is ever applied.
      if (!fits(connectionId, LIMITS.connectionId)) return 'connection id too long';
      return { ...base, change: { kind: 'disconnected', connectionId } };
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
        !fits(truncateCodePoints(status.status, LIMITS.status), LIMITS.status) ||
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
          status: truncateCodePoints(status.status, LIMITS.status),
          errorCode,
        },
      };
    }
    default:
      // Transactions, firmware, diagnostics, security events: only proof that the charge point is there.
      return { ...base, change: { kind: 'seen' } };
  }
}

/**
 * Whether the event keyed (at, sequence) comes after the stored key: a later instant, or the same one and a later
 * stream sequence (a stored sequence that is null, from before sequences were kept, counts as 0). Nothing stored: yes.
 */
function isAfter(at: Date, sequence: number, storedAt: Date | null, storedSequence: number | null): boolean {
  if (storedAt === null) return true;
  const difference = at.getTime() - storedAt.getTime();
  return difference > 0 || (difference === 0 && sequence > (storedSequence ?? 0));
}

/** Whether a disconnect naming `closed` is about a connection `opened`: the same one, or either names none. */
function sameConnection(closed: string | null, opened: string | null): boolean {
  return closed === null || opened === null || closed === opened;
}

/** Whether remembering `newer` makes remembering `older` moot: every connect `older` closes, `newer` closes too. */
function covers(newer: RememberedDisconnect, older: RememberedDisconnect): boolean {
  return (
    (newer.connectionId === null || newer.connectionId === older.connectionId) &&
    !isAfter(older.at, older.sequence, newer.at, newer.sequence)
  );
}

/**
 * `remembered` (newest first) with `disconnect` among them (the same array when it is moot, as for a redelivery),
 * without those it makes moot, the oldest beyond MAX_REMEMBERED_DISCONNECTS forgotten.
 */
function remember(
  remembered: readonly RememberedDisconnect[],
  disconnect: RememberedDisconnect,
): readonly RememberedDisconnect[] {
  if (remembered.some((other) => covers(other, disconnect))) return remembered;
  return [disconnect, ...remembered.filter((other) => !covers(disconnect, other))]
    .sort(
      (a, b) =>
        Number(isAfter(b.at, b.sequence, a.at, a.sequence)) -
        Number(isAfter(a.at, a.sequence, b.at, b.sequence)),
    )
    .slice(0, MAX_REMEMBERED_DISCONNECTS);
}

/**
 * Stored disconnects as the rules keep them: newer than the known connection's connect (opened), newest first, none
 * made moot by another, at most MAX_REMEMBERED_DISCONNECTS. For rows written by other code (a migration, a replica of
 * an earlier version).
 */
export function rememberedDisconnects(
  stored: readonly RememberedDisconnect[],
  openedAt: Date | null,
  openedSequence: number | null,
): readonly RememberedDisconnect[] {
  return stored
    .filter((disconnect) => isAfter(disconnect.at, disconnect.sequence, openedAt, openedSequence))
    .reduce<readonly RememberedDisconnect[]>(remember, []);
}

/**
 * The controller after `event` (the same object when nothing changes). Connections, for every order the events come
 * in (two gateway instances publish independently; two replicas of the consumer commit in either order; redeliveries):
 *
 * - A connect applies when it is newer (by key) than the connect of the connection the controller is known by
 *   (connection_opened_at, kept while offline), whatever disconnects were handled in between: an older connection's
 *   disconnect never blocks a newer connection. It makes its connection the known one, online, unless a remembered
 *   disconnect newer than the connect is of that connection (or either names none): then the connection is known
 *   closed and the controller offline. Remembered disconnects no newer than the connect are forgotten: only connects
 *   newer than it apply from now on. A connect no newer than the known one is an older connection's, or a redelivery:
 *   ignored. The same connection id connecting again later (the gateway re-announces it after presence loss) is simply
 *   a newer connect.
 * - A disconnect no newer than the known connection's connect is about a connection that ended before it: ignored. A
 *   newer one takes the controller offline if it is about the connection it is online over (or either names none),
 *   and is remembered, whichever connection it is about, so that its connect, if that is handled later, comes in
 *   closed; a disconnect of another connection leaves the controller online.
 *
 * So the end state is the truth whatever the order: online over the newest connection unless its disconnect was
 * handled. What the bound cannot cover: more than MAX_REMEMBERED_DISCONNECTS connections whose disconnects were all
 * handled before their connects, where the one forgotten (the oldest) turns out to be the newest connection's.
 */
export function applyToController(state: ControllerState, event: StateEvent): ControllerState {
  const { change, at, sequence } = event;
  switch (change.kind) {
    case 'connected': {
      if (!isAfter(at, sequence, state.connectionOpenedAt, state.connectionOpenedSequence)) return state;
      const pending = state.connectionsClosed.filter((disconnect) =>
        isAfter(disconnect.at, disconnect.sequence, at, sequence),
      );
      const opened: ControllerState = {
        ...state,
        connectionOpenedAt: at,
        connectionOpenedSequence: sequence,
        connectionsClosed:
          pending.length === state.connectionsClosed.length ? state.connectionsClosed : pending,
        ocppProtocol: change.protocol,
      };
      // Newest first: the newest disconnect of this connection after its connect (only the newest of each is kept).
      const closedBy = pending.find((disconnect) =>
        sameConnection(disconnect.connectionId, change.connectionId),
      );
      if (closedBy) {
        if (state.connectionStatus !== 'online') return opened;
        return {
          ...opened,
          connectionStatus: 'offline',
          connectionId: null,
          connectionChangedAt: closedBy.at,
        };
      }
      return {
        ...opened,
        connectionStatus: 'online',
        connectionId: change.connectionId,
        connectionChangedAt: at,
        lastSeenAt:
          state.lastSeenAt !== null && state.lastSeenAt.getTime() > at.getTime() ? state.lastSeenAt : at,
      };
    }
    case 'disconnected': {
      if (
        state.connectionOpenedAt !== null &&
        !isAfter(at, sequence, state.connectionOpenedAt, state.connectionOpenedSequence)
      ) {
        return state;
      }
      let next = state;
      const remembered = remember(state.connectionsClosed, {
        connectionId: change.connectionId,
        at,
        sequence,
      });
      if (remembered !== state.connectionsClosed) next = { ...next, connectionsClosed: remembered };
      // A disconnect of a connection that another one replaced leaves the controller online.
      if (state.connectionStatus === 'online' && sameConnection(change.connectionId, state.connectionId)) {
        next = { ...next, connectionStatus: 'offline', connectionId: null, connectionChangedAt: at };
      }
      return next;
    }
    case 'booted': {
      const seen = touch(state, at);
      if (!isAfter(at, sequence, seen.bootedAt, seen.bootedSequence)) return seen;
      const { vendor, model, serialNumber, firmwareVersion } = change;
      return {
        ...seen,
        vendor,
        model,
        serialNumber,
        firmwareVersion,
        bootedAt: at,
        bootedSequence: sequence,
      };
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

/** The plug after a connector status keyed (at, sequence), when newer than the one it shows (else the same object). */
export function applyToPlug(
  state: PlugState,
  at: Date,
  sequence: number,
  change: Extract<StateChange, { kind: 'connector-status' }>,
): PlugState {
  if (!isAfter(at, sequence, state.statusUpdatedAt, state.statusUpdatedSequence)) return state;
  return {
    ...state,
    status: change.status,
    errorCode: change.errorCode,
    statusUpdatedAt: at,
    statusUpdatedSequence: sequence,
  };
}
