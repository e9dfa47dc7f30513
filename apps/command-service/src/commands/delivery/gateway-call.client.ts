import { Inject, Injectable } from '@nestjs/common';
import { headers as natsHeaders, type NatsConnection, RequestError } from '@nats-io/transport-node';
import {
  type OcppCallReply,
  type OcppCallRequest,
  OcppGatewaySubjects,
  REQUEST_ID_HEADER,
} from '@cpc/contracts';
import { NATS_CONNECTION, natsClientSpan } from '@cpc/nats';
import { inChildSpan, setTraceparentHeader, tracingOn } from '@cpc/tracing';
import { describeError } from '@cpc/errors';
import { COMMAND_SERVICE_CONFIG } from '../../command-service-config.token.js';
import type { CommandServiceConfig } from '../../command-service.config.js';

export type GatewayCallResult =
  | { kind: 'reply'; reply: OcppCallReply }
  /** No gateway instance holds the charge point's connection. */
  | { kind: 'offline' }
  /** No answer (NATS trouble, the gateway died meanwhile): whether the call went out is unknown. */
  | { kind: 'unanswered'; reason: string }
  /**
   * The wait for the answer was given up (`interrupt`): the way to the charge point changed meanwhile (it connected
   * again, NATS came back), so the request is worth asking again now. Whether the call went out is unknown.
   */
  | { kind: 'interrupted'; reason: string };

/**
 * Asks the gateway instance holding a charge point to deliver a command (contract: ocpp-call.contract.ts), with the
 * raw NATS client so that "no responders" (offline) stays distinguishable from no answer.
 */
@Injectable()
export class GatewayCallClient {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(COMMAND_SERVICE_CONFIG) private readonly config: CommandServiceConfig,
  ) {}

  /** The longest a call takes (the gateway's two call timeouts and a margin). */
  private replyTimeoutMs(callTimeoutMs: number): number {
    return 2 * callTimeoutMs + this.config.tuning.gatewayReplyMarginMs;
  }

  /**
   * `interrupt` gives up waiting for the answer when it aborts (the result is then `interrupted`); a reply that comes
   * later is dropped. Asking again with the same command uuid is safe: the gateway delivers a command at most once and
   * answers a repeat with the first delivery's outcome, or joins it while it runs.
   */
  async call(
    controllerUuid: string,
    request: OcppCallRequest,
    callTimeoutMs: number,
    interrupt?: AbortSignal,
  ): Promise<GatewayCallResult> {
    const subject = OcppGatewaySubjects.call(controllerUuid);
    if (!tracingOn())
      return this.interruptible(() => this.request(subject, request, callTimeoutMs), interrupt);
    return inChildSpan('send ocpp.call.v1', natsClientSpan(subject), () =>
      this.interruptible(() => this.request(subject, request, callTimeoutMs), interrupt),
    );
  }

  private interruptible(
    ask: () => Promise<GatewayCallResult>,
    interrupt: AbortSignal | undefined,
  ): Promise<GatewayCallResult> {
    if (!interrupt) return ask();
    const interrupted = (): GatewayCallResult => ({
      kind: 'interrupted',
      reason: String(interrupt.reason ?? 'interrupted'),
    });
    if (interrupt.aborted) return Promise.resolve(interrupted());
    const answer = ask();
    return new Promise((resolve, reject) => {
      const onAbort = () => resolve(interrupted());
      interrupt.addEventListener('abort', onAbort, { once: true });
      answer.then(resolve, reject).finally(() => interrupt.removeEventListener('abort', onAbort));
    });
  }

  private async request(
    subject: string,
    request: OcppCallRequest,
    callTimeoutMs: number,
  ): Promise<GatewayCallResult> {
    const headers = natsHeaders();
    headers.set(REQUEST_ID_HEADER, request.commandUuid);
    // The delivery's span (a traced command's): the gateway's spans of the OCPP call become its children.
    setTraceparentHeader(headers);
    try {
      const message = await this.nats.request(subject, JSON.stringify(request), {
        timeout: this.replyTimeoutMs(callTimeoutMs),
        headers,
      });
      return { kind: 'reply', reply: message.json<OcppCallReply>() };
    } catch (error) {
      if (error instanceof RequestError && error.isNoResponders()) return { kind: 'offline' };
      return { kind: 'unanswered', reason: describeError(error) };
    }
  }
}
