import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { type ConnectionOpenedNotice, OcppGatewaySubjects } from '@cpc/contracts';
import { NATS_CONNECTION } from '@cpc/nats';
import { describeError } from '../describe-error.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import type { ChargePointConnection } from './charge-point-connection.js';

/**
 * "A second connection replaces the first" across instances: the load balancer may send the reconnect of a charge
 * point to another instance while this one still holds its old, half-dead socket. Each connection listens on its
 * controller's broadcast subject and steps aside when a newer connection announces itself there.
 */
@Injectable()
export class ConnectionTakeoverChannel {
  private readonly logger = new Logger(ConnectionTakeoverChannel.name);

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
  ) {}

  /** Calls `replaced` when a newer connection of the same controller opens anywhere; unsubscribe on close. */
  watch(connection: ChargePointConnection, replaced: () => void): Subscription {
    return this.nats.subscribe(OcppGatewaySubjects.connectionOpened(connection.controllerUuid), {
      callback: (error, message) => {
        if (error) return;
        try {
          // Heard after this connection subscribed, so it opened later: causally newer, whatever the clocks say.
          // Two sockets opening at the same instant may both yield; the charge point then simply reconnects.
          const notice = message.json<ConnectionOpenedNotice>();
          if (notice.connectionId !== connection.connectionId) replaced();
        } catch (parseError) {
          this.logger.warn(`ignoring a malformed connection notice: ${describeError(parseError)}`);
        }
      },
    });
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
}
