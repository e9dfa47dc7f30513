import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { type ConnectionOpenedNotice, OcppGatewaySubjects } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { describeError } from '@cpc/errors';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointConnection, GatewayCloseCause } from './charge-point-connection.js';
import { isOutranked, mayReplace } from './security-profile-rank.js';

/** A connection listening for newer ones of its controller. */
interface Watch {
  connection: ChargePointConnection;
  /** The revision of its presence entry, once written: its place in the order of the controller's connections. */
  revision?: number;
  /** The highest revision heard before its own was known; judged once it is. */
  heardRevision?: number;
  /** The security profile of the connection with that revision. */
  heardProfile?: number;
  /** The same for notices of profile-0 connections that cannot replace this one (mayReplace). */
  heardOutrankedRevision?: number;
}

/**
 * "A second connection replaces the first" across instances: the load balancer may send the reconnect of a charge
 * point to another instance while this one still holds its old, half-dead socket. Every connection writes its
 * presence entry, then announces itself on its controller's broadcast subject with the entry's KV revision; a
 * connection that hears a higher revision than its own steps aside, unless the newer one is of profile 0 and this one
 * of a higher profile: then this one writes its entry again over the newer one's and announces that (onOutranking),
 * and the profile-0 one, hearing it, steps aside and is closed (1008). The revisions are one sequence for all
 * instances, so of any two connections both agree which is newer, whatever order their notices arrive in. One wildcard
 * subscription per instance hears them all (a subscription per connection cost about a kilobyte each).
 */
@Injectable()
export class ConnectionTakeoverChannel implements OnModuleInit {
  private readonly logger = new Logger(ConnectionTakeoverChannel.name);
  /** The connection of each controller that listens for newer ones, from its opening on. */
  private readonly watching = new Map<string, Watch>();
  private replaced: (connection: ChargePointConnection, cause: GatewayCloseCause) => void = () => undefined;
  private outranking: (connection: ChargePointConnection) => void = () => undefined;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  onModuleInit(): void {
    this.nats.subscribe(OcppGatewaySubjects.connectionOpened('*'), {
      callback: (error, message) => {
        if (!error) this.heard(message);
      },
    });
  }

  /** What to do with a watched connection when a newer one of its controller opens anywhere. */
  onReplaced(replaced: (connection: ChargePointConnection, cause: GatewayCloseCause) => void): void {
    this.replaced = replaced;
  }

  /** What to do with a watched connection when a newer one of profile 0 that cannot replace it opens anywhere. */
  onOutranking(outranking: (connection: ChargePointConnection) => void): void {
    this.outranking = outranking;
  }

  /**
   * From now on `connection` hears the notices of its controller; call it when the socket opens, before its presence
   * entry is written. A newer connection's notice goes out after its entry, which comes after this one's write was
   * sent, so it cannot arrive before this.
   */
  watch(connection: ChargePointConnection): void {
    this.watching.set(connection.controllerUuid, { connection });
  }

  forget(connection: ChargePointConnection): void {
    if (this.watching.get(connection.controllerUuid)?.connection === connection) {
      this.watching.delete(connection.controllerUuid);
    }
  }

  /**
   * Announces `connection` with the revision of its presence entry. Every connection does, also one replaced
   * meanwhile: the notice also tells command-service that the way to the charge point changed, and an older one is
   * ignored by the newer connections. A watched connection that heard a newer one before knowing its own revision
   * yields now.
   */
  announce(connection: ChargePointConnection, presenceRevision: number): void {
    const watch = this.watching.get(connection.controllerUuid);
    if (watch?.connection === connection) {
      watch.revision = presenceRevision;
      if ((watch.heardRevision ?? 0) > presenceRevision) this.yield(watch, watch.heardProfile);
      else if ((watch.heardOutrankedRevision ?? 0) > presenceRevision) this.outranking(connection);
      watch.heardRevision = watch.heardOutrankedRevision = undefined;
    }
    const notice: ConnectionOpenedNotice = {
      controllerUuid: connection.controllerUuid,
      connectionId: connection.connectionId,
      gatewayInstance: this.config.gatewayInstanceId,
      presenceRevision,
      securityProfile: connection.chargePoint.securityProfile,
    };
    this.nats.publish(
      OcppGatewaySubjects.connectionOpened(connection.controllerUuid),
      JSON.stringify(notice),
    );
  }

  private heard(message: Msg): void {
    const controllerUuid = message.subject.slice(message.subject.lastIndexOf('.') + 1);
    const watch = this.watching.get(controllerUuid);
    if (!watch) return;
    let notice: ConnectionOpenedNotice;
    try {
      notice = message.json<ConnectionOpenedNotice>();
    } catch (parseError) {
      this.logger.warn(`ignoring a malformed connection notice: ${describeError(parseError)}`);
      return;
    }
    if (notice.connectionId === watch.connection.connectionId) return;
    const heard = notice.presenceRevision;
    if (typeof heard !== 'number') {
      // From an instance of an earlier version (rolling deploy). Its rule: a notice heard once this connection's flush
      // returned is newer; here once its entry is written (after the flush), one heard before counts as older. Two
      // connections of different versions racing may still both yield, as before; the charge point reconnects.
      if (watch.revision !== undefined) this.yield(watch);
      return;
    }
    const outranked = !mayReplace(notice.securityProfile, watch.connection.chargePoint.securityProfile);
    if (watch.revision === undefined) {
      if (outranked) watch.heardOutrankedRevision = Math.max(watch.heardOutrankedRevision ?? 0, heard);
      else if (heard > (watch.heardRevision ?? 0)) {
        watch.heardRevision = heard;
        watch.heardProfile = notice.securityProfile;
      }
    } else if (heard > watch.revision) {
      if (outranked) this.outranking(watch.connection);
      else this.yield(watch, notice.securityProfile);
    }
  }

  /** A profile-0 connection giving way to one of a higher profile is closed as outranked (1008), not replaced. */
  private yield({ connection }: Watch, newerProfile?: number): void {
    this.forget(connection);
    const outranked = isOutranked(connection.chargePoint.securityProfile, newerProfile);
    this.replaced(connection, outranked ? 'outranked' : 'replaced');
  }
}
