import { Inject, Injectable } from '@nestjs/common';
import type { OcppCallReply } from '@cpc/contracts';
import { classifyCallError, classifyOcppResponse, type OcppCall } from '@cpc/ocpp-commands';
import { describeError } from '@cpc/errors';
import { inChildSpan, SpanKind, tracingOn } from '@cpc/tracing';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { OcppGatewayMetrics } from '../ocpp-gateway.metrics.js';
import {
  callWithTimeout,
  RPCError,
  type StrictValidationFailure,
  TimeoutError,
} from '../ocpp-rpc/ocpp-rpc.js';

export type SentCall =
  | { sent: true; sentAt: string; reply: OcppCallReply }
  /** Nothing went out: the socket was closing, or the payload failed the schema (then `reply` says so). */
  | { sent: false; reply: OcppCallReply | undefined };

/** The client span of one OCPP call to a charge point, a child of the delivery's span (traced commands only). */
function ocppCallSpan(connection: ChargePointConnection, call: OcppCall) {
  return {
    kind: SpanKind.CLIENT,
    attributes: {
      'rpc.system': 'ocpp',
      'rpc.method': call.action,
      'cpc.ocpp.protocol': connection.protocol,
      'cpc.controller.uuid': connection.controllerUuid,
    },
  };
}

/**
 * Sends one OCPP call and turns whatever happens into an OcppCallReply. ocpp-rpc reports a CALLERROR, a reply that
 * fails the schema and a payload of ours that fails it all as RPCError; the 'call' and 'strictValidationFailure'
 * events tell them apart (the caller guarantees one outbound call at a time, so such events about it are this call's).
 */
@Injectable()
export class ChargePointCallSender {
  constructor(
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly metrics: OcppGatewayMetrics,
  ) {}

  /** `onSent` runs once, the moment the call is written to the socket. */
  async send(
    connection: ChargePointConnection,
    call: OcppCall,
    onSent?: (sentAt: string) => void,
  ): Promise<SentCall> {
    const result = tracingOn()
      ? await inChildSpan(`OCPP ${call.action}`, ocppCallSpan(connection, call), async (span) => {
          const sent = await this.sendAndClassify(connection, call, onSent);
          span?.setAttribute('cpc.ocpp.outcome', sent.reply?.outcome ?? 'not_sent');
          if (sent.reply?.outcome === 'answered') span?.setAttribute('cpc.ocpp.status', sent.reply.status);
          return sent;
        })
      : await this.sendAndClassify(connection, call, onSent);
    this.metrics.calls.inc({
      direction: 'to_charge_point',
      action: call.action,
      outcome: result.reply?.outcome ?? 'not_sent',
    });
    return result;
  }

  private async sendAndClassify(
    connection: ChargePointConnection,
    call: OcppCall,
    onSent: ((sentAt: string) => void) | undefined,
  ): Promise<SentCall> {
    const { socket, protocol } = connection;
    let sentAt: string | undefined;
    let validationFailure: StrictValidationFailure | undefined;
    const onCall = (event: { outbound: boolean }) => {
      if (!event.outbound || sentAt !== undefined) return;
      sentAt = new Date().toISOString();
      onSent?.(sentAt);
    };
    const onValidationFailure = (failure: StrictValidationFailure) => {
      // Only our call going out or its reply coming in; not a call the charge point makes meanwhile.
      const aboutThisCall = failure.method === call.action && failure.outbound === failure.isCall;
      if (aboutThisCall) validationFailure ??= failure;
    };
    socket.on('call', onCall);
    socket.on('strictValidationFailure', onValidationFailure);
    try {
      const response = await callWithTimeout(socket, call.action, call.payload, this.config.callTimeoutMs);
      const verdict = classifyOcppResponse(protocol, call.action, response);
      const reply: OcppCallReply =
        verdict.status === 'failed'
          ? {
              outcome: 'invalid_response',
              action: call.action,
              description: 'the reply lacks what the call needs',
            }
          : {
              outcome: 'answered',
              action: call.action,
              response,
              status: verdict.status,
              resultStatus: verdict.resultStatus,
            };
      return { sent: true, sentAt: sentAt ?? new Date().toISOString(), reply };
    } catch (error) {
      const message = describeError(error);
      if (validationFailure?.outbound) {
        // Our payload failed the official schema: a bug in the mapping, never the charge point's fault.
        return {
          sent: false,
          reply: { outcome: 'invalid_command', error: 'invalid_parameters', description: message },
        };
      }
      if (sentAt === undefined) return { sent: false, reply: undefined };
      return { sent: true, sentAt, reply: this.failure(call, error, validationFailure, message) };
    } finally {
      socket.off('call', onCall);
      socket.off('strictValidationFailure', onValidationFailure);
    }
  }

  private failure(
    call: OcppCall,
    error: unknown,
    validationFailure: StrictValidationFailure | undefined,
    message: string,
  ): OcppCallReply {
    if (validationFailure) return { outcome: 'invalid_response', action: call.action, description: message };
    if (error instanceof TimeoutError) return { outcome: 'timeout', action: call.action };
    if (error instanceof RPCError) {
      return {
        outcome: 'call_error',
        action: call.action,
        code: error.rpcErrorCode,
        description: message,
        error: classifyCallError(error.rpcErrorCode),
      };
    }
    // ocpp-rpc rejects pending calls with an AbortError when the socket closes.
    return { outcome: 'connection_lost', action: call.action };
  }
}
