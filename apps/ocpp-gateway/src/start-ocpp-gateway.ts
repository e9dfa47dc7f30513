import { bootstrapService, type RunningService } from '@cpc/service-runtime';
import { OcppGatewayModule } from './ocpp-gateway.module.js';
import type { OcppGatewayConfig } from './ocpp-gateway.config.js';
import { OcppWebSocketServer } from './server/ocpp-websocket.server.js';

export interface RunningOcppGateway extends RunningService {
  /** The port charge points connect to (useful when OCPP_PORT was 0). */
  ocppPort: number;
}

/** Starts the gateway; main.ts and the in-process integration tests share this. */
export async function startOcppGateway(config: OcppGatewayConfig): Promise<RunningOcppGateway> {
  const running = await bootstrapService({
    serviceName: 'ocpp-gateway',
    module: OcppGatewayModule.register(config),
    config,
    // Calls to charge points arrive on per-controller subjects the gateway subscribes to itself (OcppCallResponder).
    natsRequestHandlers: false,
  });
  return { ...running, ocppPort: running.app.get(OcppWebSocketServer).port };
}
