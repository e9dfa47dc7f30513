import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  type ChargePointConnectedEvent,
  type ChargePointDisconnectedEvent,
  ChargePointEventSubjects,
  type OcppProtocol,
} from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { OcppCallResponder } from '../calls/ocpp-call.responder.js';
import { describeError } from '@cpc/errors';
import { ChargePointEventPublisher } from '../events/charge-point-event.publisher.js';
import { IncomingCallRouter } from '../messages/incoming-call.router.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { BadMessage, OcppServerSocket, StrictValidationFailure } from '../ocpp-rpc/ocpp-rpc.js';
import {
  type AuthenticatedChargePoint,
  ChargePointConnection,
  type GatewayCloseCause,
} from './charge-point-connection.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';
import { ChargePointPresenceRegistry, disconnectedEventId } from './charge-point-presence.registry.js';
import { ConnectionTakeoverChannel } from './connection-takeover.channel.js';
import { ControllerCredentialRevocations } from './controller-credential-revocations.js';
import { isOutranked } from './security-profile-rank.js';
import { SecurityProfileTakeoverGuard } from './security-profile-takeover.guard.js';

/** How long a replaced socket waits, at most, for NATS to confirm that its call subscription is gone. */
const UNSUBSCRIBED_WAIT_MS = 1000;

/**
 * Everything that happens when a charge point's socket opens and closes: handlers, replacing an older socket (here
 * or on another instance), the call subject, presence, and the connected/disconnected events, in that order.
 */
@Injectable()
export class ChargePointConnectionLifecycle {
  private readonly logger = new Logger(ChargePointConnectionLifecycle.name);
  private readonly protocolTrouble = protocolTroubleListeners(this.logger);
  /**
   * The call subscription of each open connection, until it is replaced or closed (undefined); null for a profile-0
   * one until its presence entry is written (announce).
   */
  private readonly open = new Map<ChargePointConnection, Subscription | null | undefined>();
  /** Disconnects still being announced; shutdown waits for them before NATS drains. */
  private readonly closing = new Set<Promise<void>>();
  /** Presence recoveries in flight (settled either way): a close waits for its connection's. */
  private readonly recovering = new Map<ChargePointConnection, Promise<void>>();

  constructor(
    private readonly connections: ChargePointConnectionsRegistry,
    private readonly router: IncomingCallRouter,
    private readonly presence: ChargePointPresenceRegistry,
    private readonly takeover: ConnectionTakeoverChannel,
    private readonly calls: OcppCallResponder,
    private readonly events: ChargePointEventPublisher,
    private readonly revocations: ControllerCredentialRevocations,
    private readonly takeoverGuard: SecurityProfileTakeoverGuard,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {
    takeover.onReplaced((connection, cause) => this.replace(connection, cause));
    // A profile-0 connection wrote its entry over this one's higher profile: write it back, so that it yields.
    takeover.onOutranking((connection) => {
      void connection
        .ready()
        .then(() => this.recoverPresence(connection))
        .catch((error: unknown) =>
          this.logger.warn(`presence of ${connection.controllerUuid} not reclaimed: ${describeError(error)}`),
        );
    });
  }

  /**
   * Runs synchronously on ocpp-rpc's 'client' event, before the first message of the socket is read. A socket whose
   * credentials were revoked while its handshake was in flight, or a profile-0 one that would replace a socket of a
   * higher profile, is closed (1008) before it becomes a connection: no handlers, no events, no presence.
   */
  opened(socket: OcppServerSocket): ChargePointConnection | undefined {
    const chargePoint = socket.session as unknown as AuthenticatedChargePoint;
    const refusal = this.refusalOf(chargePoint);
    if (refusal) {
      this.logger.warn(
        `${chargePoint.ocppIdentity} (${chargePoint.controllerUuid}) refused on opening: ${refusal}`,
      );
      socket.close({ code: 1008, reason: refusal }).catch(() => undefined);
      return undefined;
    }
    const connection = new ChargePointConnection(socket, chargePoint, socket.protocol as OcppProtocol);
    this.router.attach(connection);
    this.watchProtocolTrouble(socket);
    socket.once('close', ({ code, reason }) => {
      const handled = this.closed(connection, code, reason).finally(() => this.closing.delete(handled));
      this.closing.add(handled);
    });

    const previous = this.connections.add(connection);
    if (previous) this.replace(previous);
    this.takeover.watch(connection);
    // Profile 0: served once its compare-and-set write stands, so no call reaches a socket that turns out outranked.
    this.open.set(
      connection,
      connection.chargePoint.securityProfile === 0 ? null : this.calls.serve(connection),
    );
    void this.announce(connection);
    this.logger.log(
      `${connection.chargePoint.ocppIdentity} (${connection.controllerUuid}) connected with ${connection.protocol} as ${connection.connectionId}`,
    );
    return connection;
  }

  private refusalOf(chargePoint: AuthenticatedChargePoint): string | undefined {
    const revoked = this.revocations.refusalOf(chargePoint);
    if (revoked) return revoked;
    const outranking = this.takeoverGuard.outrankingHere(
      chargePoint.controllerUuid,
      chargePoint.securityProfile,
    );
    return outranking === undefined ? undefined : 'outranked';
  }

  /** Resolves once every socket closed so far has been withdrawn and its disconnect published. */
  async disconnectsAnnounced(): Promise<void> {
    await Promise.all([...this.closing]);
  }

  /**
   * Called when this instance's presence entry of an open connection may be lost. Taken over by a newer connection
   * elsewhere (whose notice did not arrive, or whose entry was written while this ran): this one yields. Removed behind
   * its back, or swept while this process stood still: written again (compare-and-set, never over a newer entry) and
   * announced again. Found as this instance last wrote it: no sweep removed it, and its compare-and-delete fails from
   * now on, so no disconnect of it was or will be announced: nothing to announce.
   */
  async recoverPresence(connection: ChargePointConnection): Promise<void> {
    // Until its own write the entry names the connection it replaces: that is no takeover, and the write is coming.
    if (!connection.isAnnounced) return;
    // Replaced already and closing: its entry must not come back.
    if (!this.isLive(connection)) return;
    const recovery = this.recover(connection);
    const settled = recovery.catch(() => undefined);
    this.recovering.set(connection, settled);
    try {
      await recovery;
    } finally {
      if (this.recovering.get(connection) === settled) this.recovering.delete(connection);
    }
  }

  private async recover(connection: ChargePointConnection): Promise<void> {
    const reclaimed = await this.presence.reclaim(connection);
    if (reclaimed.outcome === 'taken') {
      connection.presenceInDoubt = false;
      this.logger.log(
        `presence of ${connection.controllerUuid} is held by a newer connection; ${connection.connectionId} yields`,
      );
      // A profile-0 one yielding to a higher profile is outranked (1008), as when it hears the notice.
      const outranked = isOutranked(connection.chargePoint.securityProfile, reclaimed.securityProfile);
      return this.replace(connection, outranked ? 'outranked' : 'replaced');
    }
    const previous = connection.presenceRevision;
    if (reclaimed.outcome === 'restored') {
      if (reclaimed.displaced) {
        this.logger.warn(
          `presence of ${connection.controllerUuid} was taken by a profile-0 connection; ` +
            `${connection.connectionId} stays`,
        );
      } else {
        this.logger.warn(
          `presence of ${connection.controllerUuid} was lost; announcing the connection again`,
        );
      }
      // Gone while this instance was found dead, or written over by a profile-0 connection, which its check let in only
      // with this instance taken for dead or the entry gone: a sweep may have removed it, its disconnect on its way.
      if ((connection.presenceInDoubt || reclaimed.displaced) && previous !== undefined) {
        (connection.sweptRevisions ??= []).push(previous);
      }
    }
    connection.presenceRevision = reclaimed.revision;
    // The displaced profile-0 connection hears a higher revision than its own and yields.
    if (reclaimed.outcome === 'restored' && reclaimed.displaced) {
      this.takeover.announce(connection, reclaimed.revision);
    }
    if (reclaimed.outcome === 'kept' && !connection.sweptRevisions) {
      connection.presenceInDoubt = false;
      return;
    }
    for (const revision of connection.sweptRevisions ?? []) {
      await this.repeatSweptDisconnect(connection, revision);
    }
    // A new event id: its first connected event may be within JetStream's duplicate window, and the disconnect
    // announced meanwhile must not be the last word.
    await this.publishConnected(connection, randomUUID());
    connection.sweptRevisions = undefined;
    connection.presenceInDoubt = false;
  }

  /**
   * Publishes the disconnect that a sweep publishes when it removes the connection's entry at `revision`, under the
   * same event id: the stream stores it once, so a sweep's copy still on its way is dropped, and one stored already
   * comes before the connected event that follows. By event time (assets-service goes by it first) the connected
   * event is later than this copy, and than a sweep's copy stamped by a clock no further ahead than the time between
   * the two (docs/ocpp-gateway.md).
   */
  private async repeatSweptDisconnect(connection: ChargePointConnection, revision: number): Promise<void> {
    await this.publishDisconnected(connection, revision, { reason: 'gateway_instance_lost' });
  }

  /** The connection's disconnect, under the event id of its entry's `revision` (disconnectedEventId). */
  private async publishDisconnected(
    connection: ChargePointConnection,
    revision: number | undefined,
    why: { reason: string; closeCode?: number },
  ): Promise<void> {
    const occurredAt = this.nextEventTime(connection);
    await this.events.publish<ChargePointDisconnectedEvent>(
      ChargePointEventSubjects.disconnected,
      connection,
      {
        connectionId: connection.connectionId,
        gatewayInstance: this.config.gatewayInstanceId,
        disconnectedAt: occurredAt,
        ...why,
      },
      { eventId: disconnectedEventId(connection.connectionId, revision), occurredAt },
    );
  }

  /**
   * Makes the new socket known: its call subject served, its presence entry, the takeover notice and its connected
   * event (profile 0: its entry first, see opened). A failure (a NATS timeout in a reconnect storm) is tried again
   * with backoff for as long as the socket is open and not replaced: without the connected event the controller would
   * stay shown offline, or online under its old connection, until it reconnects.
   */
  private async announce(connection: ChargePointConnection): Promise<void> {
    const { announceRetryBaseMs, announceRetryMaxMs } = this.config.tuning;
    // One event id for all tries: a repeat after a lost ack is stored once.
    const eventId = randomUUID();
    // Written once: the entry's revision places the connection among its controller's (ConnectionTakeoverChannel).
    let revision: number | undefined;
    try {
      for (let failures = 0; ; failures++) {
        try {
          // Whoever reacts to the connected event (e.g. by delivering a waiting command) must find the call subject
          // served: the flush returns once the server has processed the subscriptions made in opened() (none yet for
          // profile 0: its write goes out at once, no round trip more than before).
          if (this.open.get(connection) !== null) await this.nats.flush();
          // A retry of a connection that yielded meanwhile must not write over the newer one's entry.
          if (failures > 0 && !this.isLive(connection)) return;
          // The first try writes even when a newer socket here replaced this one meanwhile: its write was sent before
          // the newer one's (same NATS connection, flushes return in order; profile 0 has none to wait for, and its
          // compare-and-set fails over a newer entry), so it gets the lower revision.
          if (revision === undefined) {
            const written = await this.presence.announce(connection);
            if (written === undefined) {
              // Profile 0, and a higher-profile socket of the controller opened elsewhere after the handshake's check.
              this.logger.warn(
                `${connection.chargePoint.ocppIdentity} (${connection.controllerUuid}) outranked after opening`,
              );
              this.replace(connection, 'outranked');
              return;
            }
            revision = written;
          }
          // Profile 0, its entry written: served from now on (unless replaced meanwhile).
          if (this.open.get(connection) === null) {
            this.open.set(connection, this.calls.serve(connection));
            await this.nats.flush();
          }
          connection.presenceRevision = revision;
          this.takeover.announce(connection, revision);
          await this.publishConnected(connection, eventId);
          return;
        } catch (error) {
          if (!this.isLive(connection)) return;
          const delayMs = Math.min(announceRetryMaxMs, announceRetryBaseMs * 2 ** failures);
          this.logger.warn(
            `announcing ${connection.controllerUuid} failed, trying again in ${delayMs} ms: ${describeError(error)}`,
          );
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (!this.isLive(connection)) return;
        }
      }
    } finally {
      connection.announced();
    }
  }

  private async publishConnected(connection: ChargePointConnection, eventId: string): Promise<void> {
    await this.events.publish<ChargePointConnectedEvent>(
      ChargePointEventSubjects.connected,
      connection,
      {
        connectionId: connection.connectionId,
        protocol: connection.protocol,
        gatewayInstance: this.config.gatewayInstanceId,
        connectedAt: connection.connectedAt,
      },
      { eventId, occurredAt: this.nextEventTime(connection) },
    );
  }

  /**
   * When the connection's next event happens: now, or just after its latest one when that is later (a connected event
   * after a disconnect stamped by another instance's clock), so that its events keep their order by event time.
   */
  private nextEventTime(connection: ChargePointConnection): string {
    connection.lastEventAt = Math.max(Date.now(), connection.lastEventAt + 1);
    return new Date(connection.lastEventAt).toISOString();
  }

  private async closed(connection: ChargePointConnection, code: number, reason: string): Promise<void> {
    void this.stopServing(connection);
    this.open.delete(connection);
    this.connections.remove(connection);
    const cause = connection.closedBecause ?? `closed (${code}${reason ? ` ${reason}` : ''})`;
    this.logger.log(
      `${connection.chargePoint.ocppIdentity} (${connection.controllerUuid}) disconnected: ${cause}`,
    );
    // Never publish the disconnect before the connect.
    await connection.ready();
    // Outranked before its entry was written: never announced, so there is nothing to withdraw or to announce.
    if (connection.closedBecause === 'outranked' && connection.presenceRevision === undefined) return;
    // Nor before a recovery in flight wrote the entry again and announced the connection again.
    await this.recovering.get(connection);
    await this.presence.withdraw(connection).catch((error: unknown) => {
      // The entry then goes stale and another instance's sweep announces this disconnect once more (same event id).
      this.logger.warn(`presence of ${connection.controllerUuid} not withdrawn: ${describeError(error)}`);
    });
    try {
      await this.publishDisconnected(connection, connection.presenceRevision, {
        reason: cause,
        closeCode: code,
      });
    } catch (error) {
      this.logger.error(
        `announcing the disconnect of ${connection.controllerUuid} failed: ${describeError(error)}`,
      );
    }
  }

  /**
   * A newer socket of the same controller opened (here or elsewhere): stop serving this one's calls at once rather
   * than when its close handshake ends (up to 30 s for a dead socket), then close it once the server has dropped the
   * call subscription (or NATS did not answer within UNSUBSCRIBED_WAIT_MS): a request sent after the charge point saw
   * the close must reach the newer socket, not this one's draining subscription.
   */
  private replace(connection: ChargePointConnection, cause: GatewayCloseCause = 'replaced'): void {
    void Promise.race([
      this.stopServing(connection),
      sleep(UNSUBSCRIBED_WAIT_MS, undefined, { ref: false }),
    ]).then(() => connection.close(cause));
  }

  /**
   * Drain, not unsubscribe: a request the server routed here before it saw the unsubscribe still gets an answer
   * (not_sent, retry) instead of vanishing into a requester's timeout while the new socket is already served. Resolves
   * once the server has processed the unsubscribe.
   */
  private stopServing(connection: ChargePointConnection): Promise<void> {
    this.takeover.forget(connection);
    const subscription = this.open.get(connection);
    if (subscription === undefined) return Promise.resolve();
    this.open.set(connection, undefined);
    if (subscription === null) return Promise.resolve();
    return subscription
      .drain()
      .catch((error: unknown) =>
        this.logger.debug(`draining a subscription failed: ${describeError(error)}`),
      );
  }

  /** Open and neither replaced nor closing (a profile-0 one before its entry is written counts). */
  private isLive(connection: ChargePointConnection): boolean {
    return this.open.get(connection) !== undefined;
  }

  /**
   * Garbage from a charge point is answered by ocpp-rpc (CALLERROR or close); here it is logged. The listeners are
   * shared by all sockets (ocpp-rpc calls them with the socket as `this`), not closures made per socket.
   */
  private watchProtocolTrouble(socket: OcppServerSocket): void {
    socket.on('badMessage', this.protocolTrouble.badMessage);
    socket.on('strictValidationFailure', this.protocolTrouble.strictValidationFailure);
    socket.on('socketError', this.protocolTrouble.socketError);
  }
}

function protocolTroubleListeners(logger: Logger) {
  const who = (socket: OcppServerSocket) => {
    const chargePoint = socket.session as unknown as AuthenticatedChargePoint;
    return `${chargePoint.ocppIdentity} (${chargePoint.controllerUuid})`;
  };
  function badMessage(this: OcppServerSocket, { error, buffer }: BadMessage): void {
    logger.warn(
      `${who(this)} sent a malformed message (${error.message}): ${buffer.toString('utf8', 0, 200)}`,
    );
  }
  function strictValidationFailure(
    this: OcppServerSocket,
    { error, method, outbound, isCall }: StrictValidationFailure,
  ): void {
    const what = `${outbound ? 'outbound' : 'inbound'} ${method} ${isCall ? 'call' : 'reply'}`;
    // Ours failing the schema is a bug in the gateway; theirs is the charge point's.
    if (outbound) logger.error(`${who(this)}: ${what} failed the OCPP schema: ${error.message}`);
    else logger.warn(`${who(this)}: ${what} failed the OCPP schema: ${error.message}`);
    // ocpp-rpc's CALLERROR details would echo the whole invalid payload back: up to the frame limit of garbage,
    // and one nested deeper than JSON.stringify can recurse makes it close the socket instead of answering.
    if (!outbound) answerableInProtocol(error, this.protocol);
  }
  function socketError(this: OcppServerSocket, error: Error): void {
    logger.warn(`${who(this)}: socket error: ${error.message}`);
  }
  return { badMessage, strictValidationFailure, socketError };
}

/**
 * Shapes a strict-validation error before ocpp-rpc answers with it: without the offending payload in its details (the
 * schema errors stay), and with 2.0.1's spelling of OccurrenceConstraintViolation (ocpp-rpc uses 1.6's for both).
 */
function answerableInProtocol(error: Error, protocol: string): void {
  const rpcError = error as { details?: unknown; rpcErrorCode?: unknown };
  if (typeof rpcError.details === 'object' && rpcError.details !== null) {
    delete (rpcError.details as { data?: unknown }).data;
  }
  if (protocol === 'ocpp2.0.1' && rpcError.rpcErrorCode === 'OccurenceConstraintViolation') {
    rpcError.rpcErrorCode = 'OccurrenceConstraintViolation';
  }
}
