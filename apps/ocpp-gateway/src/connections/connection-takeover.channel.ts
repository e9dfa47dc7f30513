import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { type ConnectionOpenedNotice, OcppGatewaySubjects } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { describeError } from '@cpc/errors';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointConnection } from './charge-point-connection.js';

/**
 * "A second connection replaces the first" across instances: the load balancer may send the reconnect of a charge
 * point to another instance while this one still holds its old, half-dead socket. Every connection announces itself
 * on its controller's broadcast subject, and a connection that hears a newer one there steps aside. One wildcard
 * subscription per instance hears them all (a subscription per connection cost about a kilobyte each).
 */
@Injectable()
export class ConnectionTakeoverChannel implements OnModuleInit {
  private readonly logger = new Logger(ConnectionTakeoverChannel.name);
  /** The connection of each controller that listens for newer ones, from its watch() on. */
  private readonly watching = new Map<string, ChargePointConnection>();
  private replaced: (connection: ChargePointConnection) => void = () => undefined;

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
  onReplaced(replaced: (connection: ChargePointConnection) => void): void {
    this.replaced = replaced;
  }

  /**
   * From now on `connection` yields to any connection of its controller announced here. Call it once a NATS flush
   * made after the socket opened has returned: a notice the server routed before that flush was published before
   * this connection announces itself, so it is older (or opened at the same instant), and is ignored.
   */
  watch(connection: ChargePointConnection): void {
    this.watching.set(connection.controllerUuid, connection);
  }

  forget(connection: ChargePointConnection): void {
    if (this.watching.get(connection.controllerUuid) === connection) {
      this.watching.delete(connection.controllerUuid);
    }
  }

  announce(connection: ChargePointConnection): void {
    const notice: ConnectionOpenedNotice = {
      controllerUuid: connection.controllerUuid,
      connectionId: connection.connectionId,
      gatewayInstance: this.config.gatewayInstanceId,
    };
    this.nats.publish(
      OcppGatewaySubjects.connectionOpened(connection.controllerUuid),
      JSON.stringify(notice),
    );
  }

  private heard(message: Msg): void {
    const controllerUuid = message.subject.slice(message.subject.lastIndexOf('.') + 1);
    const connection = this.watching.get(controllerUuid);
    if (!connection) return;
    try {
      // Heard after this connection started watching, so it opened later: causally newer, whatever the clocks say.
      const notice = message.json<ConnectionOpenedNotice>();
      if (notice.connectionId !== connection.connectionId) {
        this.forget(connection);
        this.replaced(connection);
      }
    } catch (parseError) {
      this.logger.warn(`ignoring a malformed connection notice: ${describeError(parseError)}`);
    }
  }
}
