import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  jetstream,
  type JetStreamClient,
  jetstreamManager,
  type JsMsg,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { headers as natsHeaders, type MsgHdrs, nanos, type NatsConnection } from '@nats-io/transport-node';
import { EVENT_STREAM, type EventEnvelope } from '@cpc/contracts';
import { runWithRequestId } from '@cpc/logging';
import { inChildSpan, SpanKind, TRACEPARENT_HEADER, tracingOn } from '@cpc/tracing';
import { describeError } from '@cpc/errors';
import { NATS_CONNECTION } from './nats-connection.token.js';

export interface DurableConsumerOptions {
  /** Durable name; one per consuming service and purpose, e.g. `assets-service-charge-point-state` (JetStream durable names may not contain dots). */
  durableName: string;
  /** One subject or a wildcard below `events.` (NATS 2.9 allows one filter per consumer). */
  filterSubject: string;
  /** Redelivery delay after a failed handler. */
  retryDelayMs?: number;
  /**
   * Events handled at once (default 1: one after the other, in stream order). More only for handlers whose outcome
   * does not depend on the order of the events they are given.
   */
  concurrency?: number;
  /** Events delivered but not yet acknowledged, at most (the server stops delivering beyond it); default 1000. */
  maxAckPending?: number;
  /** Events one pull asks the server for and buffers here (fetched again as they are used up); default 256. */
  pullBatchSize?: number;
}

/** Where an event stands in the stream: its sequence number there, and how often it has been delivered. */
export interface EventPosition {
  streamSequence: number;
  /** How many times JetStream has delivered this event, this time included (1 on the first try). */
  deliveryCount: number;
}

/** What an event handler may answer (or nothing). */
export interface EventOutcome {
  /**
   * Runs once the server has taken the acknowledgement (it goes as a request then), so the consumer's ack floor, read
   * then, includes it; also when that confirmation fails (the event may be redelivered).
   */
  afterAcknowledged?: () => void;
}

export type EventHandler = (
  subject: string,
  event: EventEnvelope<unknown>,
  position: EventPosition,
) => Promise<void | EventOutcome>;

export interface BatchConsumerOptions extends Omit<DurableConsumerOptions, 'concurrency'> {
  /** Most events one call of the handler is given. */
  maxBatchSize: number;
}

/** One event of a batch, as delivered. */
export interface DeliveredEvent {
  subject: string;
  event: EventEnvelope<unknown>;
  position: EventPosition;
}

/** What a batch handler may answer (or nothing: every event is acknowledged). */
export interface BatchOutcome extends EventOutcome {
  /**
   * The events (indexes in the batch) that failed and are to be delivered again, for a handler that handles its events
   * one by one; the others are acknowledged.
   */
  redeliver: ReadonlySet<number>;
  /**
   * As EventOutcome's, for the batch's acknowledgements (only the last goes as a request: a consumer's are handled in
   * order); not run when none of its events is acknowledged.
   */
  afterAcknowledged?: () => void;
}

/**
 * Handles the events of a batch, in stream order. When it throws, all are redelivered; otherwise all are acknowledged
 * except those its outcome names (one poison event then holds back only itself, not its batch).
 */
export type EventBatchHandler = (batch: readonly DeliveredEvent[]) => Promise<void | BatchOutcome>;

/**
 * Publishes and consumes the platform's durable events (JetStream, stream EVENT_STREAM). Publishing waits for the
 * stream's ack, and the event id doubles as JetStream's message id so a retried publish is stored once. Consumers
 * ack after their handler succeeded and ask for redelivery when it failed: handlers must be idempotent.
 */
@Injectable()
export class JetStreamEventBus implements OnApplicationShutdown {
  private readonly logger = new Logger(JetStreamEventBus.name);
  private readonly client: JetStreamClient;
  private readonly running: ConsumerMessages[] = [];
  private streamReady: Promise<void> | undefined;
  private stopping = false;

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {
    this.client = jetstream(connection);
  }

  /** Creates the stream when missing; safe to call from every service at start-up. */
  ensureStream(): Promise<void> {
    this.streamReady ??= (async () => {
      const manager = await jetstreamManager(this.connection);
      const config = {
        name: EVENT_STREAM.name,
        subjects: [...EVENT_STREAM.subjects],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        max_age: nanos(EVENT_STREAM.maxAgeSeconds * 1000),
        duplicate_window: nanos(EVENT_STREAM.duplicateWindowSeconds * 1000),
      };
      try {
        await manager.streams.info(EVENT_STREAM.name);
      } catch {
        await manager.streams.add(config).catch(async (error: unknown) => {
          // Another service created it between our look-up and our add.
          await manager.streams.info(EVENT_STREAM.name).catch(() => {
            throw error;
          });
        });
      }
    })();
    this.streamReady.catch(() => (this.streamReady = undefined));
    return this.streamReady;
  }

  /**
   * With a `traceparent` (a traced request's: activeTraceparent()), the event carries it in its headers and its
   * consumers continue that trace. Passed explicitly: a relay publishing everyone's events (TransactionalOutbox) runs
   * in the context of whichever request woke it, whose trace the events must not claim.
   */
  async publish<TData>(subject: string, event: EventEnvelope<TData>, traceparent?: string): Promise<void> {
    await this.ensureStream();
    let headers: MsgHdrs | undefined;
    if (traceparent) {
      headers = natsHeaders();
      headers.set(TRACEPARENT_HEADER, traceparent);
    }
    await this.client.publish(subject, JSON.stringify(event), { msgID: event.eventId, headers });
  }

  /**
   * Starts a durable consumer that runs `handler` for each event, in stream order (`concurrency` at a time when
   * asked), until shutdown.
   */
  async consume(options: DurableConsumerOptions, handler: EventHandler): Promise<void> {
    const messages = await this.startDurable(options);
    const retryDelayMs = options.retryDelayMs ?? 1000;
    const concurrency = options.concurrency ?? 1;
    const handling = new Set<Promise<void>>();
    const handle = async (message: JsMsg) => {
      const delivered = this.delivered(message);
      if (!delivered) return;
      const { event } = delivered;
      try {
        let outcome: EventOutcome | undefined;
        await this.runTraced(options.durableName, message, event.eventId, async () => {
          outcome = (await handler(message.subject, event, delivered.position)) ?? undefined;
        });
        const afterAcknowledged = outcome?.afterAcknowledged;
        if (afterAcknowledged) void message.ackAck().then(afterAcknowledged, afterAcknowledged);
        else message.ack();
      } catch (error) {
        this.logger.error(
          `handling ${message.subject} (event ${event.eventId}) failed, redelivering: ${describeError(error)}`,
        );
        message.nak(retryDelayMs);
      }
    };
    void (async () => {
      try {
        for await (const message of messages) {
          const handled = handle(message).catch((error: unknown) => {
            // Acknowledging failed (the connection is going away): the event is redelivered after ack_wait.
            this.logger.warn(`event on ${message.subject} not acknowledged: ${String(error)}`);
          });
          handling.add(handled);
          void handled.finally(() => handling.delete(handled));
          if (handling.size >= concurrency) await Promise.race(handling);
        }
      } catch (error) {
        this.reportStop(options.durableName, error);
      }
    })();
  }

  /**
   * Starts a durable consumer that hands `handler` the events delivered so far, up to `maxBatchSize` at a time, in
   * stream order, until shutdown: it never waits for a batch to fill, so a lone event goes on at once, and events that
   * arrive while a batch is handled make up the next one. One batch at a time: the next starts once the previous one
   * is acknowledged. All of a batch's events are acknowledged once the handler succeeded (but those its outcome
   * names, redelivered), and all are redelivered (after `retryDelayMs`) when it threw, so the handler must apply a
   * batch whole or not at all (one transaction), or handle its events one by one and name those that failed; an
   * event that is not JSON is dropped on its own. The handler runs under the first event's id as request id, and
   * in the trace of the first event that carries one (tracing on).
   */
  async consumeBatches(options: BatchConsumerOptions, handler: EventBatchHandler): Promise<void> {
    const messages = await this.startDurable(options);
    const retryDelayMs = options.retryDelayMs ?? 1000;
    const maxBatchSize = Math.max(1, options.maxBatchSize);
    const waiting: JsMsg[] = [];
    let arrived: (() => void) | undefined;
    let ended = false;
    const handleBatch = async (batch: JsMsg[]) => {
      const accepted: { message: JsMsg; delivered: DeliveredEvent }[] = [];
      for (const message of batch) {
        const delivered = this.delivered(message);
        if (delivered) accepted.push({ message, delivered });
      }
      if (accepted.length === 0) return;
      const [first] = accepted;
      const traced = accepted.find(({ message }) => message.headers?.has(TRACEPARENT_HEADER)) ?? first;
      try {
        let outcome: BatchOutcome | undefined;
        await this.runTraced(
          options.durableName,
          traced.message,
          first.delivered.event.eventId,
          async () => {
            outcome = (await handler(accepted.map((a) => a.delivered))) ?? undefined;
          },
          accepted.length,
        );
        let lastAcknowledged: JsMsg | undefined;
        for (const [index, { message }] of accepted.entries()) {
          if (outcome?.redeliver.has(index)) message.nak(retryDelayMs);
          else {
            lastAcknowledged?.ack();
            lastAcknowledged = message;
          }
        }
        const afterAcknowledged = outcome?.afterAcknowledged;
        if (afterAcknowledged && lastAcknowledged) {
          // Not awaited: the next batch does not wait for the confirmation.
          void lastAcknowledged.ackAck().then(afterAcknowledged, afterAcknowledged);
        } else lastAcknowledged?.ack();
      } catch (error) {
        const sequences = accepted.map(({ message }) => message.seq);
        this.logger.error(
          `handling a batch of ${accepted.length} events (stream sequences ${sequences[0]}…${sequences.at(-1)}) ` +
            `failed, redelivering: ${describeError(error)}`,
        );
        for (const { message } of accepted) message.nak(retryDelayMs);
      }
    };
    // Takes what has arrived; handles one batch at a time.
    void (async () => {
      for (;;) {
        if (waiting.length === 0) {
          if (ended) return;
          await new Promise<void>((resolve) => (arrived = resolve));
          arrived = undefined;
          // The events received together with the first one (one read from the socket) join its batch.
          await new Promise((resolve) => setImmediate(resolve));
          continue;
        }
        const batch = waiting.splice(0, maxBatchSize);
        await handleBatch(batch).catch((error: unknown) => {
          // Acknowledging failed (the connection is going away): the events are redelivered after ack_wait.
          this.logger.warn(`a batch of ${batch.length} events not acknowledged: ${String(error)}`);
        });
      }
    })();
    // Receives: the messages wait here while a batch is handled (JetStream stops at maxAckPending unacknowledged).
    void (async () => {
      try {
        for await (const message of messages) {
          waiting.push(message);
          arrived?.();
        }
      } catch (error) {
        this.reportStop(options.durableName, error);
      } finally {
        ended = true;
        arrived?.();
      }
    })();
  }

  /** Creates (or updates) the durable consumer and starts pulling its messages. */
  private async startDurable(
    options: Omit<DurableConsumerOptions, 'concurrency'>,
  ): Promise<ConsumerMessages> {
    await this.ensureStream();
    const manager = await jetstreamManager(this.connection);
    await manager.consumers.add(EVENT_STREAM.name, {
      durable_name: options.durableName,
      filter_subject: options.filterSubject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(30_000),
      max_ack_pending: options.maxAckPending ?? 1000,
    });
    const consumer = await this.client.consumers.get(EVENT_STREAM.name, options.durableName);
    const messages = await consumer.consume({ max_messages: options.pullBatchSize ?? 256 });
    this.running.push(messages);
    return messages;
  }

  /** The message's event and position; undefined (and the message dropped for good) when it is not JSON. */
  private delivered(message: JsMsg): DeliveredEvent | undefined {
    try {
      return {
        subject: message.subject,
        event: message.json<EventEnvelope<unknown>>(),
        position: { streamSequence: message.seq, deliveryCount: message.info.deliveryCount },
      };
    } catch {
      this.logger.error(`dropping an event on ${message.subject} that is not JSON`);
      message.term();
      return undefined;
    }
  }

  /**
   * Runs `run` under `requestId`, in a consumer span continuing the trace the message carries (tracing on); a batch's
   * span counts its events.
   */
  private runTraced(
    durableName: string,
    message: JsMsg,
    requestId: string,
    run: () => Promise<void>,
    batchSize?: number,
  ): Promise<void> {
    const traceparent = tracingOn() ? message.headers?.get(TRACEPARENT_HEADER) : undefined;
    return runWithRequestId(requestId, () =>
      traceparent
        ? inChildSpan(
            `process ${message.subject}`,
            {
              kind: SpanKind.CONSUMER,
              traceparent,
              attributes: {
                'messaging.system': 'nats',
                'messaging.destination.name': message.subject,
                'messaging.consumer.group.name': durableName,
                ...(batchSize === undefined ? {} : { 'messaging.batch.message_count': batchSize }),
              },
            },
            run,
          )
        : run(),
    );
  }

  /** Draining the connection at shutdown ends a consumer's loop with an error: the expected end, not a crash. */
  private reportStop(durableName: string, error: unknown): void {
    if (this.stopping || this.connection.isClosed() || this.connection.isDraining()) return;
    this.logger.error(`consumer ${durableName} stopped: ${describeError(error)}`);
  }

  /**
   * The stream sequence up to which a durable consumer has every event acknowledged (its ack floor): whatever its
   * handlers write for those events is written, on every instance.
   */
  async ackFloor(durableName: string): Promise<number> {
    const manager = await jetstreamManager(this.connection, { checkAPI: false });
    const info = await manager.consumers.info(EVENT_STREAM.name, durableName);
    return info.ack_floor.stream_seq;
  }

  /**
   * Runs `handler` for every event on `subject` published from now on, on this instance, until shutdown; `onEnd`
   * when that stops early (the consumer failed). For state every instance keeps (a durable consumer load-balances
   * between instances and outlives them): an ordered consumer, ephemeral and private to the instance, which unlike a
   * core subscription resumes from its last stream sequence after a NATS reconnect, so an event published during a
   * blip still arrives.
   */
  async followOnThisInstance(
    subject: string,
    handler: (event: EventEnvelope<unknown>) => void,
    onEnd: () => void = () => undefined,
  ): Promise<void> {
    await this.ensureStream();
    const consumer = await this.client.consumers.get(EVENT_STREAM.name, {
      filter_subjects: subject,
      deliver_policy: DeliverPolicy.New,
    });
    const messages = await consumer.consume();
    this.running.push(messages);
    void (async () => {
      try {
        for await (const message of messages) {
          try {
            handler(message.json<EventEnvelope<unknown>>());
          } catch (error) {
            this.logger.warn(`ignoring an event on ${subject} it could not take: ${describeError(error)}`);
          }
        }
      } catch (error) {
        if (!(this.stopping || this.connection.isClosed() || this.connection.isDraining())) {
          this.logger.error(`following ${subject} stopped: ${describeError(error)}`);
        }
      } finally {
        onEnd();
      }
    })();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running.map((messages) => messages.close()));
  }
}
