import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { pingOrDrop } from '../ocpp-rpc/ocpp-rpc.js';
import { ChargePointConnectionsRegistry } from './charge-point-connections.registry.js';

/**
 * Finds dead sockets: every half OCPP_PING_DEADLINE_MS each open socket is pinged, and one whose previous ping is
 * still unanswered is dropped. This is ocpp-rpc's own keep-alive (its `pingIntervalMs`, switched off in the server),
 * run by one timer for all sockets instead of a timer, an async loop, an AbortController and an EventEmitter per
 * socket, which came to about 1.3 KB per idle charge point.
 */
@Injectable()
export class ChargePointKeepAlive implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly connections: ChargePointConnectionsRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(
      () => {
        for (const connection of this.connections.all()) pingOrDrop(connection.socket);
      },
      Math.floor(this.config.pingDeadlineMs / 2),
    );
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
