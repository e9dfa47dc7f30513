import { randomUUID } from 'node:crypto';
import type { OcppProtocol } from '@cpc/contracts';
import { OneCallAtATimeQueue } from '../calls/one-call-at-a-time.queue.js';
import {
  type OcppServerSocket,
  terminateSocket,
  WEBSOCKET_CLOSED,
  WEBSOCKET_OPEN,
} from '../ocpp-rpc/ocpp-rpc.js';

/** What the handshake established about a charge point; ocpp-rpc keeps it as the socket's session. */
export interface AuthenticatedChargePoint {
  tenantUuid: string;
  controllerUuid: string;
  /** As registered in assets-service (identities compare case-insensitively, events carry this spelling). */
  ocppIdentity: string;
  securityProfile: number;
  /** The controller's credentials version the handshake was answered with (see ControllerCredentialsChangedEvent). */
  credentialsVersion: number;
  /** The controller's location when the socket opened (id tokens may be restricted to locations). */
  locationUuid: string;
  /**
   * Profile 0 only: the revision of the controller's presence key that the handshake's check read (0: never written).
   * The connection's entry is written over exactly that (compare-and-set) when nothing changed since.
   */
  presenceRevisionSeen?: number;
}

/** Why the gateway itself closed a socket; a socket the charge point closed (or that died) has none. */
export type GatewayCloseCause =
  | 'replaced'
  | 'outranked'
  | 'controller_deleted'
  | 'credentials_changed'
  | 'call_budget_exhausted'
  | 'gateway_shutdown';

const CLOSE_CODE: Record<GatewayCloseCause, number> = {
  // 1000: nothing is wrong, a newer socket of the same charge point took over.
  replaced: 1000,
  // 1008: a profile-0 socket never replaces one that authenticated with a higher profile (security-profile-rank.ts).
  outranked: 1008,
  // 1008 (policy violation): the charge point is no longer allowed in; its reconnect will be refused.
  controller_deleted: 1008,
  // 1008: the password, security profile or identity it authenticated with is no longer valid.
  credentials_changed: 1008,
  // 1008: it kept sending calls far beyond its budget (IncomingCallRouter).
  call_budget_exhausted: 1008,
  // 1001 (going away): the charge point should reconnect, and the load balancer sends it to another instance.
  gateway_shutdown: 1001,
};

/**
 * One accepted WebSocket of one charge point, from the handshake to its close. A gateway holds thousands of idle
 * ones, so what is only needed now and then (the call queue, promises to wait on) is made when first asked for.
 */
export class ChargePointConnection {
  readonly connectionId = randomUUID();
  /** ISO 8601, as every event and the presence entry carry it. */
  readonly connectedAt = new Date().toISOString();
  /** The revision of its presence entry as this instance last wrote it; undefined until written. */
  presenceRevision: number | undefined;
  /**
   * Set when this instance was found dead (it stood still), until its entry is checked: a sweep by another instance
   * may have removed it and announced the connection offline meanwhile.
   */
  presenceInDoubt = false;
  /**
   * Revisions of its entry that a sweep may have removed and announced offline, until those disconnects are repeated
   * and the connection announced again (a recovery that failed halfway leaves them to the next).
   */
  sweptRevisions: number[] | undefined;
  /** When its latest connected or disconnected event happened (ms): the next one is stamped later. */
  lastEventAt = 0;
  private calls: OneCallAtATimeQueue | undefined;
  private closeCause: GatewayCloseCause | undefined;
  private wasAnnounced = false;
  private readyPromise: Promise<void> | undefined;
  private markReady: (() => void) | undefined;

  constructor(
    readonly socket: OcppServerSocket,
    readonly chargePoint: AuthenticatedChargePoint,
    readonly protocol: OcppProtocol,
  ) {}

  /** Calls from the platform to this charge point take turns here. */
  get outgoingCalls(): OneCallAtATimeQueue {
    return (this.calls ??= new OneCallAtATimeQueue());
  }

  get controllerUuid(): string {
    return this.chargePoint.controllerUuid;
  }

  get tenantUuid(): string {
    return this.chargePoint.tenantUuid;
  }

  /** The `ChargePointRef` part of every charge-point event. */
  get ref(): { controllerUuid: string; ocppIdentity: string } {
    return { controllerUuid: this.chargePoint.controllerUuid, ocppIdentity: this.chargePoint.ocppIdentity };
  }

  get isOpen(): boolean {
    return this.socket.state === WEBSOCKET_OPEN;
  }

  /** Set when the gateway closed the socket on purpose; undefined while open or when the charge point went away. */
  get closedBecause(): GatewayCloseCause | undefined {
    return this.closeCause;
  }

  /**
   * Resolves once the connection is announced (connected event, presence): message handlers wait for it, so a
   * BootNotification sent right after the handshake is never published before the connection itself.
   */
  ready(): Promise<void> {
    if (this.wasAnnounced) return Promise.resolve();
    this.readyPromise ??= new Promise((resolve) => (this.markReady = resolve));
    return this.readyPromise;
  }

  /** Whether its first announcement is over (done, or given up because the socket closed). */
  get isAnnounced(): boolean {
    return this.wasAnnounced;
  }

  announced(): void {
    this.wasAnnounced = true;
    this.markReady?.();
    this.readyPromise = this.markReady = undefined;
  }

  /**
   * Closes the socket and resolves once it is closed; `awaitPending` lets calls in flight in either direction finish
   * first (graceful shutdown).
   */
  async close(cause: GatewayCloseCause, options: { awaitPending?: boolean } = {}): Promise<void> {
    this.closeCause ??= cause;
    const closed = this.closed();
    // ocpp-rpc's promise rejects when the socket errors while closing; closed is closed either way.
    this.socket
      .close({ code: CLOSE_CODE[cause], reason: cause, awaitPending: options.awaitPending ?? false })
      .catch(() => undefined);
    await closed;
  }

  /** Drops the TCP connection at once, even in the middle of a graceful close (a shutdown's grace period ran out). */
  async terminate(): Promise<void> {
    const closed = this.closed();
    terminateSocket(this.socket);
    await closed;
  }

  /** ocpp-rpc enters CLOSED right before it emits 'close', so a socket in that state has closed already. */
  private closed(): Promise<void> {
    if (this.socket.state === WEBSOCKET_CLOSED) return Promise.resolve();
    return new Promise((resolve) => this.socket.once('close', () => resolve()));
  }
}
