import { Injectable } from '@nestjs/common';
import type { ChargePointMessageHandler } from './charge-point-message.handler.js';

/** Heartbeats only keep the charge point's clock in sync; liveness is watched by WebSocket pings. */
@Injectable()
export class HeartbeatHandler implements ChargePointMessageHandler {
  readonly actions = { 'ocpp1.6': ['Heartbeat'], 'ocpp2.0.1': ['Heartbeat'] } as const;

  handle(): Promise<object> {
    return Promise.resolve({ currentTime: new Date().toISOString() });
  }
}
