import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OcppProtocol } from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { describeError } from '@cpc/errors';
import { OcppGatewayMetrics } from '../ocpp-gateway.metrics.js';
import { handleActions, ocppCallError, RPCError } from '../ocpp-rpc/ocpp-rpc.js';
import {
  CHARGE_POINT_MESSAGE_HANDLERS,
  type ChargePointMessageHandler,
} from './charge-point-message.handler.js';

/**
 * Registers the message handlers on each new socket. An action without a handler is answered NotImplemented by
 * ocpp-rpc itself; a handler that fails for a reason of ours (NATS away, a bug) answers InternalError without details.
 */
@Injectable()
export class IncomingCallRouter {
  private readonly logger = new Logger(IncomingCallRouter.name);
  private readonly routes = new Map<OcppProtocol, Map<string, ChargePointMessageHandler>>();

  constructor(
    @Inject(CHARGE_POINT_MESSAGE_HANDLERS) handlers: ChargePointMessageHandler[],
    private readonly metrics: OcppGatewayMetrics,
  ) {
    for (const handler of handlers) {
      for (const [protocol, actions] of Object.entries(handler.actions) as [
        OcppProtocol,
        readonly string[],
      ][]) {
        const routes = this.routes.get(protocol) ?? new Map<string, ChargePointMessageHandler>();
        for (const action of actions) {
          if (routes.has(action)) throw new Error(`two handlers for ${protocol} ${action}`);
          routes.set(action, handler);
        }
        this.routes.set(protocol, routes);
      }
    }
  }

  /**
   * Must run synchronously on the 'client' event: ocpp-rpc starts reading messages on the next tick. One function per
   * socket serves all its actions (a closure per action and socket added up with thousands of idle charge points).
   */
  attach(connection: ChargePointConnection): void {
    const routes = this.routes.get(connection.protocol);
    if (!routes) return;
    handleActions(connection.socket, routes, ({ messageId, method, params }) =>
      runWithRequestId(messageId, () => this.dispatch(connection, routes, method, params)),
    );
  }

  private async dispatch(
    connection: ChargePointConnection,
    routes: Map<string, ChargePointMessageHandler>,
    action: string,
    params: Record<string, unknown>,
  ): Promise<object> {
    const handler = routes.get(action);
    if (!handler) throw ocppCallError('NotImplemented', `Unable to handle '${action}' calls`);
    await connection.ready();
    const counted = { direction: 'from_charge_point', action };
    try {
      const response = await handler.handle(connection, action, params);
      this.metrics.calls.inc({ ...counted, outcome: 'ok' });
      return response;
    } catch (error) {
      const isCallError = error instanceof RPCError;
      this.metrics.calls.inc({ ...counted, outcome: isCallError ? 'call_error' : 'internal_error' });
      if (isCallError) throw error;
      this.logger.error(`${action} from ${connection.controllerUuid} failed: ${describeError(error)}`);
      throw ocppCallError('InternalError', 'the message could not be processed, try again later');
    }
  }
}
