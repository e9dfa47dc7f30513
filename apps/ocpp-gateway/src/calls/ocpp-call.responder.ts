import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import {
  type OcppCallCompletedEvent,
  OcppCallEventSubjects,
  type OcppCallReply,
  type OcppCallRequest,
  type OcppCallSentEvent,
  type OcppCallTarget,
  OcppGatewaySubjects,
  type OcppProtocol,
  REQUEST_ID_HEADER,
} from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import { activeTraceparent, inChildSpan, SpanKind, TRACEPARENT_HEADER, tracingOn } from '@cpc/tracing';
import { JetStreamEventBus, NATS_CONNECTION } from '@cpc/nats';
import {
  buildOcppCalls,
  classifyOcppResponse,
  isCommandType,
  type LocalListUpdate,
  mergeVariableResponses,
  type OcppCall,
  type MessageLimits,
  OcppCallBuildError,
  settingResults,
  settingsStatus,
  splitVariableCall,
  UNANSWERED_SETTING_STATUS,
} from '@cpc/ocpp-commands';
import type { ChargePointConnection } from '../connections/charge-point-connection.js';
import { describeError, DomainError } from '@cpc/errors';
import { eventIdFrom } from '../events/charge-point-event.publisher.js';
import { OCPP_GATEWAY_CONFIG } from '../ocpp-gateway-config.token.js';
import type { OcppGatewayConfig } from '../ocpp-gateway.config.js';
import { ChargePointCallSender, type SentCall } from './charge-point-call.sender.js';
import { CommandDeliveryLedger, type DeliveryRecord } from './command-delivery.ledger.js';
import { LocalListSender } from './local-list.sender.js';
import { LocalListSource, sendLocalListParameters } from './local-list.source.js';
import { NO_TURN } from './one-call-at-a-time.queue.js';

/** All instances share it: a request reaches exactly one of them even in the moment two hold the same controller. */
const CALL_QUEUE_GROUP = 'ocpp-gateway';

/**
 * Delivers platform commands to the charge point of a connection (contract: ocpp-call.contract.ts). While a socket
 * is open its instance serves the controller's call subject; the command becomes an OCPP call by the shared mapping
 * (@cpc/ocpp-commands), is recorded in the delivery ledger, sent when the charge point is free, and the answer is
 * classified by the same mapping.
 */
@Injectable()
export class OcppCallResponder implements BeforeApplicationShutdown {
  private readonly logger = new Logger(OcppCallResponder.name);
  /** Deliveries in progress on this instance: a repeated request joins the first instead of reading the ledger. */
  private readonly inFlight = new Map<string, Promise<OcppCallReply>>();
  /** Outcomes already replied with whose record in the ledger is still being written. */
  private readonly recording = new Map<string, Promise<void>>();
  private shuttingDown = false;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(OCPP_GATEWAY_CONFIG) private readonly config: OcppGatewayConfig,
    private readonly ledger: CommandDeliveryLedger,
    private readonly sender: ChargePointCallSender,
    private readonly bus: JetStreamEventBus,
    private readonly localLists: LocalListSource,
    private readonly localListSender: LocalListSender,
  ) {}

  beforeApplicationShutdown(): void {
    this.shuttingDown = true;
  }

  /** Resolves once the outcomes replied with so far are in the ledger and their events handed to NATS (shutdown). */
  async outcomesRecorded(): Promise<void> {
    await Promise.all(this.recording.values());
  }

  serve(connection: ChargePointConnection): Subscription {
    return this.nats.subscribe(OcppGatewaySubjects.call(connection.controllerUuid), {
      queue: CALL_QUEUE_GROUP,
      callback: (error, message) => {
        if (!error) void this.answer(connection, message);
      },
    });
  }

  private answer(connection: ChargePointConnection, message: Msg): Promise<void> {
    const traceparent = tracingOn() ? message.headers?.get(TRACEPARENT_HEADER) : undefined;
    if (!traceparent) return this.answerOnce(connection, message);
    return inChildSpan(
      'process ocpp.call.v1',
      {
        kind: SpanKind.SERVER,
        traceparent,
        attributes: {
          'messaging.system': 'nats',
          'messaging.destination.name': message.subject,
          'cpc.controller.uuid': connection.controllerUuid,
          'cpc.gateway.instance': this.config.gatewayInstanceId,
        },
      },
      () => this.answerOnce(connection, message),
    );
  }

  private async answerOnce(connection: ChargePointConnection, message: Msg): Promise<void> {
    const requestId = message.headers?.get(REQUEST_ID_HEADER) || undefined;
    await runWithRequestId(requestId, async () => {
      let reply: OcppCallReply;
      try {
        reply = await this.deliver(connection, message);
      } catch (error) {
        this.logger.error(`delivery to ${connection.controllerUuid} failed: ${describeError(error)}`);
        reply = {
          outcome: 'not_sent',
          reason: 'delivery_not_recorded',
          description: 'the gateway could not deliver it',
        };
      }
      message.respond(JSON.stringify(reply));
    });
  }

  private deliver(connection: ChargePointConnection, message: Msg): Promise<OcppCallReply> {
    let request: OcppCallRequest;
    try {
      request = message.json<OcppCallRequest>();
    } catch {
      return Promise.resolve(invalidCommand('the request is not JSON'));
    }
    if (typeof request?.commandUuid !== 'string' || request.commandUuid === '') {
      return Promise.resolve(invalidCommand('commandUuid is required'));
    }
    const running = this.inFlight.get(request.commandUuid);
    if (running) return running;
    const delivery = this.deliverOnce(connection, request);
    this.inFlight.set(request.commandUuid, delivery);
    // Kept until the outcome is recorded: until then a repeat would find the ledger's claim without its reply.
    void delivery
      .then(
        () => this.recording.get(request.commandUuid),
        () => undefined,
      )
      .finally(() => this.inFlight.delete(request.commandUuid));
    return delivery;
  }

  private async deliverOnce(
    connection: ChargePointConnection,
    request: OcppCallRequest,
  ): Promise<OcppCallReply> {
    if (this.shuttingDown) {
      return {
        outcome: 'not_sent',
        reason: 'gateway_shutting_down',
        description: 'the gateway instance is shutting down',
      };
    }
    if (!connection.isOpen) {
      // Routed here just before the socket closed (see ChargePointConnectionLifecycle): the requester retries.
      return {
        outcome: 'not_sent',
        reason: 'charge_point_disconnected',
        description: 'the connection closed before the call went out',
      };
    }
    let localList: LocalListUpdate[] | undefined;
    const listParameters = sendLocalListParameters(request);
    if (listParameters) {
      try {
        localList = await this.localLists.prepare(connection, request.commandUuid, listParameters);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'not_found') {
          const reply = invalidCommand('the tenant has no such controller');
          this.publishCompleted(connection, request.commandUuid, null, reply);
          return reply;
        }
        this.logger.warn(`local list of ${request.commandUuid} not prepared: ${describeError(error)}`);
        return {
          outcome: 'not_sent',
          reason: 'delivery_not_recorded',
          description: 'the local list could not be prepared',
        };
      }
    }
    let calls: OcppCall[];
    try {
      calls = this.build(connection, request, localList);
    } catch (error) {
      const reply =
        error instanceof OcppCallBuildError
          ? ({ outcome: 'invalid_command', error: error.errorKey, description: error.message } as const)
          : invalidCommand(describeError(error));
      this.publishCompleted(connection, request.commandUuid, null, reply);
      return reply;
    }

    const record: DeliveryRecord = {
      controllerUuid: connection.controllerUuid,
      gatewayInstance: this.config.gatewayInstanceId,
      claimedAt: new Date().toISOString(),
    };
    let claim;
    try {
      claim = await this.ledger.claim(request.commandUuid, record);
    } catch (error) {
      this.logger.warn(`cannot record delivery of ${request.commandUuid}: ${describeError(error)}`);
      return {
        outcome: 'not_sent',
        reason: 'delivery_not_recorded',
        description: 'the delivery could not be recorded',
      };
    }
    if (!claim.claimed) {
      // Sent before, here or elsewhere: never again. An attempt that never settled died with its instance.
      this.logger.warn(
        `command ${request.commandUuid} was delivered before; answering with its recorded outcome`,
      );
      return claim.existing.reply ?? { outcome: 'connection_lost', action: null };
    }

    let sentEventTimer: NodeJS.Timeout | undefined;
    const onSent = (sentAt: string) => {
      sentEventTimer = this.announceSent(connection, request.commandUuid, sentAt);
    };
    const result = await connection.outgoingCalls.run(this.config.callTimeoutMs, () =>
      listParameters
        ? this.localListSender.send(connection, request, calls, onSent)
        : this.sendAll(connection, request, calls, onSent),
    );
    clearTimeout(sentEventTimer);
    if (result === NO_TURN || !result.sent) {
      const reply = result === NO_TURN ? undefined : result.reply;
      if (reply) {
        this.settle(connection, request.commandUuid, record, null, reply);
        return reply;
      }
      await this.ledger.release(request.commandUuid, claim.revision).catch((error: unknown) => {
        this.logger.warn(`claim of ${request.commandUuid} not released: ${describeError(error)}`);
      });
      return result === NO_TURN
        ? {
            outcome: 'not_sent',
            reason: 'charge_point_busy',
            description: 'the previous call to the charge point did not finish in time',
          }
        : {
            outcome: 'not_sent',
            reason: 'charge_point_disconnected',
            description: 'the connection closed before the call went out',
          };
    }
    this.settle(connection, request.commandUuid, record, result.sentAt, result.reply);
    return result.reply;
  }

  /**
   * The command's calls one after the other, in one turn of the charge point: one call for most types; 1.6
   * change_configuration one ChangeConfiguration per key; a 2.0.1 SetVariables/GetVariables larger than the charge
   * point takes, one call per part (splitVariableCall); send_local_list goes by LocalListSender. A call that is not
   * answered does not stop the others (but a lost connection does: the calls after it are not sent); when none is
   * answered, the first one's outcome is the delivery's. Several answers become one reply (mergedReply).
   */
  private async sendAll(
    connection: ChargePointConnection,
    request: OcppCallRequest,
    calls: OcppCall[],
    onSent: (sentAt: string) => void,
  ): Promise<SentCall> {
    const responses: unknown[] = [];
    const unanswered = new Map<number, string>();
    let sentAt: string | undefined;
    let firstFailure: OcppCallReply | undefined;
    for (const [index, call] of calls.entries()) {
      if (firstFailure?.outcome === 'connection_lost') {
        unanswered.set(index, UNANSWERED_SETTING_STATUS.not_sent);
        responses.push(undefined);
        continue;
      }
      const sent = await this.sender.send(connection, call, sentAt === undefined ? onSent : undefined);
      if (sentAt === undefined) {
        if (!sent.sent) return sent;
        sentAt = sent.sentAt;
      }
      const reply = sent.reply ?? { outcome: 'connection_lost', action: call.action };
      if (reply.outcome === 'answered') {
        responses.push(reply.response);
        if (calls.length === 1 && request.type !== 'change_configuration')
          return { sent: true, sentAt, reply };
        continue;
      }
      firstFailure ??= reply;
      responses.push(undefined);
      unanswered.set(index, unansweredStatus(reply));
    }
    if (sentAt === undefined) throw new TypeError('a command without calls');
    if (unanswered.size === calls.length) return { sent: true, sentAt, reply: firstFailure! };
    return {
      sent: true,
      sentAt,
      reply: mergedReply(connection.protocol, request, calls, responses, unanswered),
    };
  }

  /** The command's calls; a send_local_list's update one SendLocalList per part (`localList`). */
  private build(
    connection: ChargePointConnection,
    request: OcppCallRequest,
    localList?: LocalListUpdate[],
  ): OcppCall[] {
    const type = request.type;
    if (!isCommandType(type))
      throw new OcppCallBuildError('invalid_parameters', `unknown command type ${String(type)}`);
    const createdAt = request.createdAt ? new Date(request.createdAt) : undefined;
    const now = createdAt && !Number.isNaN(createdAt.getTime()) ? createdAt : undefined;
    const buildWith = (part?: LocalListUpdate) =>
      buildOcppCalls(
        connection.protocol,
        { commandUuid: request.commandUuid, type, parameters: request.parameters },
        targetFor(connection.protocol, request.target),
        { now, localList: part },
      );
    const calls = localList ? localList.flatMap(buildWith) : buildWith();
    return calls.flatMap((call) => splitVariableCall(call, messageLimitsFor(call, request.messageLimits)));
  }

  /**
   * Records the final reply (for repeats), then publishes it durably (for a requester that restarted meanwhile). The
   * reply waits for neither: a requester that is still there has its answer (a ledger write fewer in every charge
   * point's round of commands), one that is not finds the event or, asking again, the recorded reply; a repeat while
   * the record is written joins the delivery in flight (deliver).
   */
  private settle(
    connection: ChargePointConnection,
    commandUuid: string,
    record: DeliveryRecord,
    sentAt: string | null,
    reply: OcppCallReply,
  ): void {
    const recorded = this.recordOutcome(connection, commandUuid, record, sentAt, reply).finally(() =>
      this.recording.delete(commandUuid),
    );
    this.recording.set(commandUuid, recorded);
  }

  private async recordOutcome(
    connection: ChargePointConnection,
    commandUuid: string,
    record: DeliveryRecord,
    sentAt: string | null,
    reply: OcppCallReply,
  ): Promise<void> {
    try {
      await this.ledger.settle(commandUuid, { ...record, sentAt, reply });
    } catch (error) {
      this.logger.warn(`outcome of ${commandUuid} not recorded: ${describeError(error)}`);
    }
    this.publishCompleted(connection, commandUuid, sentAt, reply);
  }

  /**
   * The call-sent event, once the call has been out for OCPP_CALL_SENT_EVENT_DELAY_MS without an answer (the returned
   * timer is cleared when it comes). Most charge points answer within milliseconds, and then the call-completed event
   * alone says when the call went out: one JetStream event and one status write fewer per command, with the
   * command's status history unchanged (pending, sent, then its outcome).
   */
  private announceSent(
    connection: ChargePointConnection,
    commandUuid: string,
    sentAt: string,
  ): NodeJS.Timeout | undefined {
    if (this.config.callSentEventDelayMs === 0) {
      this.publishSent(connection, commandUuid, sentAt);
      return undefined;
    }
    return setTimeout(
      () => this.publishSent(connection, commandUuid, sentAt),
      this.config.callSentEventDelayMs,
    );
  }

  /** Not awaited by the call: the event must not hold up the charge point's answer. */
  private publishSent(connection: ChargePointConnection, commandUuid: string, sentAt: string): void {
    const event: OcppCallSentEvent = {
      eventId: eventIdFrom(commandUuid, 'call-sent'),
      occurredAt: sentAt,
      tenantUuid: connection.tenantUuid,
      data: { commandUuid, controllerUuid: connection.controllerUuid, sentAt },
    };
    this.bus.publish(OcppCallEventSubjects.sent, event).catch((error: unknown) => {
      this.logger.warn(`call-sent event of ${commandUuid} not published: ${describeError(error)}`);
    });
  }

  private publishCompleted(
    connection: ChargePointConnection,
    commandUuid: string,
    sentAt: string | null,
    reply: OcppCallReply,
  ): void {
    const event: OcppCallCompletedEvent = {
      eventId: eventIdFrom(commandUuid, 'call-completed'),
      occurredAt: new Date().toISOString(),
      tenantUuid: connection.tenantUuid,
      data: { commandUuid, controllerUuid: connection.controllerUuid, sentAt, reply },
    };
    // In a traced delivery, command-service's consumer of the event continues the trace.
    this.bus.publish(OcppCallEventSubjects.completed, event, activeTraceparent()).catch((error: unknown) => {
      this.logger.warn(`call-completed event of ${commandUuid} not published: ${describeError(error)}`);
    });
  }
}

/** The limits of the call's action (2.0.1 SetVariables/GetVariables) among the charge point's (null: not known). */
function messageLimitsFor(call: OcppCall, limits: OcppCallRequest['messageLimits']): MessageLimits {
  const known = (value: unknown) =>
    Number.isInteger(value) && (value as number) > 0 ? (value as number) : null;
  return call.action === 'GetVariables'
    ? {
        itemsPerMessage: known(limits?.itemsPerMessageGetVariables),
        bytesPerMessage: known(limits?.bytesPerMessageGetVariables),
      }
    : {
        itemsPerMessage: known(limits?.itemsPerMessageSetVariables),
        bytesPerMessage: known(limits?.bytesPerMessageSetVariables),
      };
}

/** 2.0.1 numbers a connector within its EVSE; the request carries that number beside the station-wide one. */
function targetFor(protocol: OcppProtocol, target: OcppCallTarget): OcppCallTarget {
  if (protocol !== 'ocpp2.0.1' || target?.targetType !== 'connector' || !target.evseConnectorId)
    return target;
  return { ...target, connectorId: target.evseConnectorId };
}

/** The status result.settings gives a call that got no answer. */
function unansweredStatus(reply: OcppCallReply): string {
  return reply.outcome in UNANSWERED_SETTING_STATUS
    ? UNANSWERED_SETTING_STATUS[reply.outcome as keyof typeof UNANSWERED_SETTING_STATUS]
    : UNANSWERED_SETTING_STATUS.not_sent;
}

/**
 * The answers to a command's calls (at least one answered) as one reply. change_configuration: each setting with its
 * status, accepted only when every one was Accepted or RebootRequired; the response is 1.6 `{responses}` (null for
 * a key not answered), 2.0.1 the parts' results merged. A GetVariables in parts: the answered parts merged, classified
 * as one answer.
 */
function mergedReply(
  protocol: OcppProtocol,
  request: OcppCallRequest,
  calls: OcppCall[],
  responses: unknown[],
  unanswered: ReadonlyMap<number, string>,
): OcppCallReply {
  const action = calls[0].action;
  const response =
    protocol === 'ocpp1.6'
      ? calls.length === 1
        ? responses[0]
        : { responses: responses.map((each) => each ?? null) }
      : mergeVariableResponses(action, responses);
  if (request.type !== 'change_configuration') {
    const verdict = classifyOcppResponse(protocol, action, response);
    return verdict.status === 'failed'
      ? { outcome: 'invalid_response', action, description: 'the reply lacks what the call needs' }
      : { outcome: 'answered', action, response, status: verdict.status, resultStatus: verdict.resultStatus };
  }
  const settings = settingResults(protocol, calls, responses, unanswered);
  const { accepted, resultStatus } = settingsStatus(settings.map((setting) => setting.status));
  return {
    outcome: 'answered',
    action,
    response,
    status: accepted ? 'accepted' : 'rejected',
    resultStatus,
    settings,
  };
}

function invalidCommand(description: string): OcppCallReply {
  return { outcome: 'invalid_command', error: 'invalid_parameters', description };
}
