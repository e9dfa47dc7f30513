import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OcppProtocol } from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { describeError } from '@cpc/errors';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { OcppGatewayMetrics } from '../ocpp-gateway.metrics.js';
import { handleActions, ocppCallError, RPCError } from '../ocpp-rpc/ocpp-rpc.js';
import {
  CHARGE_POINT_MESSAGE_HANDLERS,
  type ChargePointMessageHandler,
} from './charge-point-message.handler.js';
import { IncomingCallBudget, type IncomingCallBudgetLimits } from './incoming-call.budget.js';

/**
 * Registers the message handlers on each new socket. An action without a handler is answered NotImplemented by
 * ocpp-rpc itself; a handler that fails for a reason of ours (NATS away, a bug) answers InternalError without details.
 * Every incoming call first takes a token of its socket's IncomingCallBudget: a call beyond it is answered GenericError
 * before it is validated or handled (nothing is published, no service is asked), and a charge point that keeps
 * sending past OCPP_INCOMING_CALL_REFUSALS_BEFORE_CLOSE refusals in a row loses its socket (1008).
 */
@Injectable()
export class IncomingCallRouter {
  private readonly logger = new Logger(IncomingCallRouter.name);
  private readonly routes = new Map<OcppProtocol, Map<string, ChargePointMessageHandler>>();
  private readonly budgetLimits: IncomingCallBudgetLimits;

  constructor(
    @Inject(CHARGE_POINT_MESSAGE_HANDLERS) handlers: ChargePointMessageHandler[],
    private readonly metrics: OcppGatewayMetrics,
    @Inject(OCPP_GATEWAY_CONFIG) config: OcppGatewayConfig,
  ) {
    this.budgetLimits = {
      burst: config.incomingCallBurst,
      perSecond: config.incomingCallsPerSecond,
      refusalsBeforeClose: config.incomingCallRefusalsBeforeClose,
    };
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
    const budget = new IncomingCallBudget(this.budgetLimits);
    handleActions(
      connection.socket,
      routes,
      ({ messageId, method, params }) =>
        runWithRequestId(messageId, () => this.dispatch(connection, routes, method, params)),
      (action) => this.admit(connection, budget, routes.has(action) ? action : 'unknown'),
    );
  }

  /** `action` is 'unknown' for one without a route: a metric label must not take whatever a charge point sends. */
  private admit(connection: ChargePointConnection, budget: IncomingCallBudget, action: string): void {
    const verdict = budget.take();
    if (verdict === 'admitted') return;
    this.metrics.calls.inc({ direction: 'from_charge_point', action, outcome: 'over_budget' });
    if (verdict === 'exhausted' && connection.isOpen) {
      this.logger.warn(
        `${connection.chargePoint.ocppIdentity} (${connection.controllerUuid}) kept sending past its call budget; closing its socket`,
      );
      void connection.close('call_budget_exhausted');
    }
    throw ocppCallError(
      'GenericError',
      `too many calls: at most ${this.budgetLimits.perSecond} per second (bursts of ${this.budgetLimits.burst}); retry later`,
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
